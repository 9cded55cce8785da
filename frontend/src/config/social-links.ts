import { Camera, Code, MessageCircle, type LucideIcon } from 'lucide-react';

export interface SocialLink {
  href: string;
  /** The link's accessible name: where it goes. */
  label: string;
  icon: LucideIcon;
}

/** SPEC §2: the footer's social links, a microblog, a photo-sharing service and a code host. */
export const socialLinks: readonly SocialLink[] = [
  { href: 'https://x.com/likenessapp', label: 'Likeness on X', icon: MessageCircle },
  { href: 'https://www.instagram.com/likenessapp', label: 'Likeness on Instagram', icon: Camera },
  { href: 'https://github.com/likeness-app', label: 'Likeness on GitHub', icon: Code },
];
