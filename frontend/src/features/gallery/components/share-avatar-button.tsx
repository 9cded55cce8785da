import { Share2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { shareAvatar } from '../utils/share-avatar';

export function ShareAvatarButton({ shareUrl }: { shareUrl: string }) {
  const [pending, setPending] = useState(false);

  async function handleShare() {
    setPending(true);
    const outcome = await shareAvatar(shareUrl);
    setPending(false);
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
        // The user closed the share sheet: nothing to say.
        break;
    }
  }

  return (
    <Button variant="outline" disabled={pending} onClick={() => void handleShare()}>
      {pending ? <Spinner /> : <Share2 aria-hidden="true" />}
      Share
    </Button>
  );
}
