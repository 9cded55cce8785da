import { Share2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { announceShare, shareAvatar } from '@/lib/avatars/share-avatar';

export function ShareAvatarButton({ shareUrl }: { shareUrl: string }) {
  const [pending, setPending] = useState(false);

  async function handleShare() {
    setPending(true);
    const outcome = await shareAvatar(shareUrl);
    setPending(false);
    announceShare(outcome);
  }

  return (
    <Button variant="outline" disabled={pending} onClick={() => void handleShare()}>
      {pending ? <Spinner /> : <Share2 aria-hidden="true" />}
      Share
    </Button>
  );
}
