import type { SocialLinkKind } from '@likeness/contracts';
import { Camera, Code, MessageCircle, type LucideIcon } from 'lucide-react';

/**
 * SPEC §2: the footer links the deployment's accounts on a microblog, a photo-sharing service
 * and a code host. SPEC names no account, so each deployment configures its own (SOCIAL_*_URL,
 * served by GET /api/config); a kind not configured is not shown.
 */
export const socialLinkIcons: Record<SocialLinkKind, LucideIcon> = {
  microblog: MessageCircle,
  photos: Camera,
  code: Code,
};

/** The link's accessible name: whose account, and where (the service's host). */
export function socialLinkLabel(url: string): string {
  return `Likeness on ${new URL(url).hostname.replace(/^www\./, '')}`;
}
