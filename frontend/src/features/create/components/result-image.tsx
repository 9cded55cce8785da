import type { Avatar } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { Download, ImageIcon, Share2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useOutputFormat } from '@/hooks/use-output-format';
import { announceDownload, announceDownloadFailed, downloadAvatar } from '@/lib/avatars/download-avatar';
import { announceShare, shareAvatar } from '@/lib/avatars/share-avatar';

/** One new photo, large, with Download (in the remembered format) and Share under it. */
export function ResultImage({ avatar, position, total }: { avatar: Avatar; position: number; total: number }) {
  const [format] = useOutputFormat();
  const [sharing, setSharing] = useState(false);
  const download = useMutation({
    mutationFn: () => downloadAvatar(avatar, format),
    onSuccess: announceDownload,
    onError: announceDownloadFailed,
  });
  const label = total === 1 ? 'your new photo' : `photo ${position} of ${total}`;

  async function share() {
    setSharing(true);
    const outcome = await shareAvatar(avatar.shareUrl);
    setSharing(false);
    announceShare(outcome);
  }

  return (
    <li className="animate-fade-in flex min-w-0 flex-col gap-2">
      <img
        src={avatar.imageUrl}
        alt={`New avatar ${position} of ${total}: ${avatar.promptText}`}
        className="aspect-square w-full rounded-xl border bg-muted object-cover shadow-sm"
      />
      <div className="grid grid-cols-2 gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-label={`Download ${label}`}
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? <Spinner /> : <Download aria-hidden="true" />}
          Download
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Share ${label}`}
          disabled={sharing}
          onClick={() => void share()}
        >
          {sharing ? <Spinner /> : <Share2 aria-hidden="true" />}
          Share
        </Button>
      </div>
    </li>
  );
}

/** The place a photo will take once it is saved. */
export function ResultSlot() {
  return (
    <li aria-hidden="true" className="flex min-w-0 flex-col gap-2">
      <div className="grid aspect-square w-full animate-pulse place-items-center rounded-xl border border-dashed bg-muted/60 motion-reduce:animate-none">
        <ImageIcon className="size-8 text-muted-foreground/50" />
      </div>
      <div className="h-9" />
    </li>
  );
}
