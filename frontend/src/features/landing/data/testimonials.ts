export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

/** SPEC §2: three static quotes, each with a name, a role and 5 stars. */
export const testimonials: readonly Testimonial[] = [
  {
    quote:
      'I needed fresh profile pictures for every platform I post on. One training and an afternoon later I had a whole set, and they actually look like me.',
    name: 'Maya Chen',
    role: 'Content Creator',
  },
  {
    quote:
      'The scene explorer is my favourite part. I drop my trigger word in front of a prompt and get mock-ups for client pitches in minutes.',
    name: 'Jordan Ellis',
    role: 'Product Designer',
  },
  {
    quote:
      'No subscription to forget about. I buy a pack when a campaign needs visuals, and the credits I do not use are still there next month.',
    name: 'Priya Raman',
    role: 'Marketing Lead',
  },
];
