import type { Avatar } from '@likeness/contracts';
import { CalendarDays, ImageOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatCreatedAt } from '@/lib/avatars/format-date';
import { CopyPromptButton } from './copy-prompt-button';
import { DeleteAvatarButton } from './delete-avatar-button';
import { DownloadAvatarControls } from './download-avatar-controls';
import { ShareAvatarButton } from './share-avatar-button';

interface AvatarDetailsDialogProps {
  /** The avatar to show; null closes the dialog. */
  avatar: Avatar | null;
  onClose: () => void;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>['onCloseAutoFocus'];
}

/** "Avatar Details": the full image, its prompt and date, and what can be done with it. */
export function AvatarDetailsDialog({ avatar, onClose, onCloseAutoFocus }: AvatarDetailsDialogProps) {
  // Keep drawing the last avatar while the dialog animates out (its entry may already be gone).
  const [shown, setShown] = useState(avatar);
  if (avatar && avatar !== shown) setShown(avatar);

  return (
    <Dialog open={avatar !== null} onOpenChange={(open) => !open && onClose()}>
      {shown ? (
        <DialogContent
          className="max-w-4xl gap-0 p-0 md:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)] md:overflow-hidden"
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <AvatarDetails key={shown.id} avatar={shown} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function AvatarDetails({ avatar }: { avatar: Avatar }) {
  const [imageFailed, setImageFailed] = useState(false);
  const createdAt = formatCreatedAt(avatar.createdAt);
  const hasPrompt = avatar.promptText.trim().length > 0;

  return (
    <>
      <div className="grid min-h-64 place-items-center bg-muted/60 md:min-h-0">
        {imageFailed ? (
          <p className="flex flex-col items-center gap-2 p-10 text-sm text-muted-foreground">
            <ImageOff className="size-8" aria-hidden="true" />
            The image could not be loaded.
          </p>
        ) : (
          <img
            src={avatar.imageUrl}
            alt={hasPrompt ? `Avatar: ${avatar.promptText}` : 'Avatar'}
            onError={() => setImageFailed(true)}
            className="max-h-[60dvh] w-full object-contain md:h-full md:max-h-[calc(100dvh-2rem)]"
          />
        )}
      </div>

      <div className="flex min-w-0 flex-col gap-6 p-5 sm:p-6 md:overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Avatar Details</DialogTitle>
          <DialogDescription className="flex items-center gap-1.5">
            <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
            {createdAt && avatar.createdAt ? (
              <span>
                Created <time dateTime={avatar.createdAt}>{createdAt}</time>
              </span>
            ) : (
              'Creation date unknown'
            )}
          </DialogDescription>
        </DialogHeader>

        <section aria-labelledby={`prompt-${avatar.id}`} className="flex flex-col gap-2">
          <div className="flex items-center justify-between gap-2">
            <h3 id={`prompt-${avatar.id}`} className="text-sm font-semibold">
              Prompt
            </h3>
            <CopyPromptButton promptText={avatar.promptText} />
          </div>
          {hasPrompt ? (
            <p className="max-h-48 overflow-y-auto rounded-xl border bg-muted/40 p-3 text-sm leading-relaxed break-words whitespace-pre-wrap">
              {avatar.promptText}
            </p>
          ) : (
            <p className="rounded-xl border border-dashed p-3 text-sm text-muted-foreground italic">
              No prompt was saved with this avatar.
            </p>
          )}
        </section>

        <div className="mt-auto flex flex-col gap-4">
          <DownloadAvatarControls avatar={avatar} className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2" />
          <ShareAvatarButton shareUrl={avatar.shareUrl} />
          <div className="flex justify-end border-t pt-3">
            <DeleteAvatarButton avatarId={avatar.id} />
          </div>
        </div>
      </div>
    </>
  );
}
