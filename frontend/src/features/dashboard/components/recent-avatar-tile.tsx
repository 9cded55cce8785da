import type { Avatar } from '@likeness/contracts';
import { CalendarDays, Check, Copy, Eye, ImageOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useCopyPrompt } from '@/hooks/use-copy-prompt';
import { formatCardDate } from '@/lib/avatars/format-date';
import { promptPreview } from '@/lib/avatars/prompt-preview';
import { cn } from '@/lib/cn';

/** Hidden until the tile is hovered, holds keyboard focus or was tapped. */
const fadesIn =
  'opacity-0 transition-opacity duration-150 group-has-[:focus-visible]:opacity-100 group-hover:opacity-100 group-data-[revealed]:opacity-100';
/** Taking no clicks while hidden; around the actions a tap falls through to the photo. */
const clickableWhenShown =
  'pointer-events-none group-has-[:focus-visible]:pointer-events-auto group-hover:pointer-events-auto group-data-[revealed]:pointer-events-auto';

/** SPEC §2: the overlay shows the first 50 characters of the prompt. */
const PREVIEW_LENGTH = 50;

/**
 * One recent avatar: the photo on its own, and an overlay (date, prompt preview, View, Copy) that
 * appears on hover, while keyboard focus is inside, and on a tap of the photo (touch screens have no hover).
 */
export function RecentAvatarTile({ avatar }: { avatar: Avatar }) {
  const [imageFailed, setImageFailed] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const { copied, copyPrompt } = useCopyPrompt();
  const previewId = useId();
  const preview = promptPreview(avatar.promptText, PREVIEW_LENGTH);

  return (
    <div
      data-revealed={revealed || undefined}
      className="group relative aspect-square overflow-hidden rounded-2xl border bg-muted shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]"
    >
      {imageFailed ? (
        <div
          role="img"
          aria-label={preview || 'Avatar'}
          className="grid size-full place-items-center text-muted-foreground"
        >
          <ImageOff className="size-8" aria-hidden="true" />
        </div>
      ) : (
        <img
          src={avatar.thumbnailUrl}
          alt={preview || 'Avatar'}
          loading="lazy"
          decoding="async"
          onError={() => setImageFailed(true)}
          className="size-full object-cover transition-transform duration-300 group-has-[:focus-visible]:scale-[1.03] group-hover:scale-[1.03]"
        />
      )}

      <button
        type="button"
        aria-expanded={revealed}
        aria-describedby={previewId}
        onClick={() => setRevealed((shown) => !shown)}
        className="absolute inset-0 size-full cursor-pointer rounded-2xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
      >
        <span className="sr-only">Show actions</span>
      </button>

      <span
        className={cn(
          fadesIn,
          'pointer-events-none absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-background/85 px-2 py-0.5 text-[11px] font-medium text-foreground shadow-sm backdrop-blur-sm sm:text-xs',
        )}
      >
        <CalendarDays className="size-3 shrink-0" aria-hidden="true" />
        {avatar.createdAt ? (
          <time dateTime={avatar.createdAt}>{formatCardDate(avatar.createdAt)}</time>
        ) : (
          formatCardDate(null)
        )}
      </span>

      <div
        className={cn(
          fadesIn,
          'pointer-events-none absolute inset-x-0 bottom-0 flex flex-col gap-2 bg-gradient-to-t from-black/85 via-black/60 to-transparent p-2 pt-8 text-white sm:p-3 sm:pt-10',
        )}
      >
        <p
          id={previewId}
          className={cn('line-clamp-2 text-xs leading-snug sm:text-sm', !preview && 'italic opacity-80')}
        >
          {preview || 'No prompt'}
        </p>
        <div className={cn(clickableWhenShown, 'flex gap-1.5')}>
          <Button
            asChild
            size="sm"
            variant="secondary"
            className="h-8 flex-1 bg-white/90 px-2 text-neutral-900 hover:bg-white"
          >
            <Link to={paths.gallery} aria-describedby={previewId}>
              <Eye aria-hidden="true" />
              View
            </Link>
          </Button>
          <Button
            size="sm"
            variant="secondary"
            className="h-8 flex-1 bg-white/90 px-2 text-neutral-900 hover:bg-white"
            aria-describedby={previewId}
            onClick={() => void copyPrompt(avatar.promptText)}
          >
            {copied ? <Check className="text-emerald-600" aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
      </div>
    </div>
  );
}
