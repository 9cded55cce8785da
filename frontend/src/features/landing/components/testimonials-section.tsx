import { Star } from 'lucide-react';
import { initialsOf } from '@/lib/initials-of';
import { testimonials } from '../data/testimonials';
import { SectionHeading, sectionClasses } from './section-heading';

const STARS = 5;

export function TestimonialsSection() {
  return (
    <section id="testimonials" aria-labelledby="testimonials-title" className={sectionClasses}>
      <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="Loved by creators" />
      <ul className="mt-12 grid gap-5 md:grid-cols-3">
        {testimonials.map(({ quote, name, role }) => (
          <li key={name}>
            <figure className="flex h-full flex-col gap-5 rounded-2xl border bg-card p-6 text-card-foreground">
              <p role="img" aria-label={`Rated ${STARS} out of ${STARS} stars`} className="flex gap-0.5">
                {Array.from({ length: STARS }, (_, index) => (
                  <Star key={index} className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" />
                ))}
              </p>
              <blockquote className="flex-1 leading-relaxed">&ldquo;{quote}&rdquo;</blockquote>
              <figcaption className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="bg-brand-gradient grid size-10 place-items-center rounded-full text-sm font-semibold text-white"
                >
                  {initialsOf(name)}
                </span>
                <span className="flex flex-col">
                  <span className="font-semibold">{name}</span>
                  <span className="text-sm text-muted-foreground">{role}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
