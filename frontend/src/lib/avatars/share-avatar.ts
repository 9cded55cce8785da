import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/**
 * What happened to a share: the device's share sheet took it, the link went to the clipboard,
 * the user closed the sheet, or nothing worked (after the share sheet failed, or with no sheet
 * and no clipboard).
 */
export type ShareOutcome =
  { kind: 'shared' } | { kind: 'copied' } | { kind: 'cancelled' } | { kind: 'failed'; attempted: 'share' | 'copy' };

/** The public link is relative to the site; outside it, it needs the origin. */
export function absoluteShareUrl(shareUrl: string): string {
  return new URL(shareUrl, window.location.origin).toString();
}

function isUserCancel(error: unknown): boolean {
  // A DOMException; not every engine makes those instances of Error.
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/** SPEC §7: the device's share function when there is one, the link copied otherwise (or when sharing fails). */
export async function shareAvatar(shareUrl: string): Promise<ShareOutcome> {
  const url = absoluteShareUrl(shareUrl);
  let attempted: 'share' | 'copy' = 'copy';
  if (typeof navigator.share === 'function') {
    attempted = 'share';
    try {
      await navigator.share({ title: 'My Likeness avatar', url });
      return { kind: 'shared' };
    } catch (error) {
      if (isUserCancel(error)) return { kind: 'cancelled' };
    }
  }
  try {
    await copyText(url);
    return { kind: 'copied' };
  } catch {
    return { kind: 'failed', attempted };
  }
}

/** Tells the user how their share went (a closed share sheet needs no words). */
export function announceShare(outcome: ShareOutcome): void {
  switch (outcome.kind) {
    case 'shared':
      toast({ title: 'Shared successfully' });
      break;
    case 'copied':
      toast({ title: 'Link copied', description: 'Anyone with this link can view your avatar.' });
      break;
    case 'failed':
      toast(
        outcome.attempted === 'share'
          ? { variant: 'destructive', title: 'Share failed', description: 'There was an error sharing your avatar.' }
          : { variant: 'destructive', title: 'Copy failed', description: 'There was an error copying the link.' },
      );
      break;
    case 'cancelled':
      break;
  }
}
