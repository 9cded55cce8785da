import type { Avatar } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { Download, Share2, Star, Trash2 } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useOutputFormat } from '@/hooks/use-output-format';
import { cn } from '@/lib/cn';
import { announceDownload, announceDownloadFailed, downloadAvatar } from '@/lib/avatars/download-avatar';
import { announceShare, shareAvatar } from '@/lib/avatars/share-avatar';
import { useFavouriteAvatar } from '../api/favourite-avatar';
import { DeleteAvatarButton } from './delete-avatar-button';

/**
 * A tile's actions, out of the photo's way: shown while the tile is hovered (with a mouse), holds
 * keyboard focus, or was tapped once on a phone; hidden, they take no taps either.
 */
export function TileActions({ avatar }: { avatar: Avatar }) {
  const [format] = useOutputFormat();
  const favourite = useFavouriteAvatar();
  const download = useMutation({
    mutationFn: () => downloadAvatar(avatar, format),
    onSuccess: announceDownload,
    onError: announceDownloadFailed,
  });
  const share = useMutation({ mutationFn: () => shareAvatar(avatar.shareUrl), onSuccess: announceShare });

  return (
    <div
      data-slot="tile-actions"
      className={cn(
        'pointer-events-none absolute inset-x-2 bottom-2 flex justify-end gap-1.5 opacity-0 transition-opacity duration-150',
        'group-focus-within:pointer-events-auto group-focus-within:opacity-100 group-hover:pointer-events-auto group-hover:opacity-100',
        'group-data-[revealed=true]:pointer-events-auto group-data-[revealed=true]:opacity-100',
      )}
    >
      <TileButton label="Download" onClick={() => download.mutate()} disabled={download.isPending}>
        {download.isPending ? <Spinner /> : <Download aria-hidden="true" />}
      </TileButton>
      <TileButton label="Share" onClick={() => share.mutate()} disabled={share.isPending}>
        <Share2 aria-hidden="true" />
      </TileButton>
      <TileButton
        label="Favourite"
        aria-pressed={avatar.favourite}
        disabled={favourite.isPending}
        onClick={() => favourite.mutate({ id: avatar.id, favourite: !avatar.favourite })}
      >
        <Star aria-hidden="true" className={cn(avatar.favourite && 'fill-amber-500 text-amber-500')} />
      </TileButton>
      <DeleteAvatarButton
        avatarId={avatar.id}
        trigger={
          <TileButton label="Delete" className="hover:text-destructive">
            <Trash2 aria-hidden="true" />
          </TileButton>
        }
      />
    </div>
  );
}

function TileButton({ label, className, ...props }: ComponentProps<typeof Button> & { label: string }) {
  return (
    <Button
      variant="outline"
      size="icon-sm"
      aria-label={label}
      title={label}
      className={cn('rounded-full border-border/60 bg-background/90 shadow-sm backdrop-blur', className)}
      {...props}
    />
  );
}
