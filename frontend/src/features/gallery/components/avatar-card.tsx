import type { Avatar } from '@likeness/contracts';
import { CalendarDays, ImageOff, Star } from 'lucide-react';
import { useId, useState } from 'react';
import { cn } from '@/lib/cn';
import { formatCardDate } from '@/lib/avatars/format-date';
import { promptPreview } from '@/lib/avatars/prompt-preview';
import { TileActions } from './tile-actions';

export interface TileSelection {
  selected: boolean;
  onToggle: (avatar: Avatar) => void;
}

interface AvatarCardProps {
  avatar: Avatar;
  onOpen: (avatar: Avatar) => void;
  /** Phones (no hover): the tile whose actions a first tap revealed. */
  revealed: boolean;
  onReveal: (avatar: Avatar) => void;
  /** In select mode, whether this tile is chosen; the tile then only toggles that. */
  selection?: TileSelection;
}

const canHover = () => typeof window.matchMedia !== 'function' || !window.matchMedia('(hover: none)').matches;

/**
 * One avatar in the grid: the photo alone, its prompt and date below. Its actions (download,
 * share, favourite, delete) show on hover or keyboard focus, and on phones after a first tap;
 * the next tap (or a click) opens the details.
 */
export function AvatarCard({ avatar, onOpen, revealed, onReveal, selection }: AvatarCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const textId = useId();
  const preview = promptPreview(avatar.promptText);

  function handleOpen() {
    if (!revealed && !canHover()) onReveal(avatar);
    else onOpen(avatar);
  }

  return (
    <article
      data-revealed={revealed}
      className={cn(
        'group flex h-full w-full flex-col overflow-hidden rounded-2xl border bg-card text-card-foreground',
        'shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]',
        'transition-[border-color,box-shadow] duration-150 hover:border-primary/40 hover:shadow-md',
        selection?.selected && 'border-primary ring-2 ring-primary',
      )}
    >
      <div className="relative aspect-square w-full overflow-hidden bg-muted">
        {imageFailed ? (
          <span className="grid size-full place-items-center text-muted-foreground">
            <ImageOff className="size-8" aria-hidden="true" />
          </span>
        ) : (
          <img
            src={avatar.thumbnailUrl}
            alt=""
            loading="lazy"
            decoding="async"
            onError={() => setImageFailed(true)}
            className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
          />
        )}
        {selection ? (
          <label className="absolute inset-0 cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-inset">
            <input
              type="checkbox"
              checked={selection.selected}
              onChange={() => selection.onToggle(avatar)}
              aria-labelledby={textId}
              className="absolute top-2.5 left-2.5 size-5 cursor-pointer accent-primary"
            />
          </label>
        ) : (
          <>
            <button
              type="button"
              aria-haspopup="dialog"
              aria-labelledby={textId}
              onClick={handleOpen}
              className="absolute inset-0 size-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
            />
            {avatar.favourite ? (
              <span className="pointer-events-none absolute top-2 right-2 grid size-7 place-items-center rounded-full bg-background/85 text-amber-500 shadow-sm">
                <Star className="size-4 fill-current" aria-hidden="true" />
              </span>
            ) : null}
            <TileActions avatar={avatar} />
          </>
        )}
      </div>
      <div id={textId} className="flex flex-1 flex-col justify-between gap-2 p-3 sm:p-4">
        <span className={cn('line-clamp-2 text-sm leading-snug', !preview && 'text-muted-foreground italic')}>
          {preview || 'No prompt'}
        </span>
        <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground">
          <CalendarDays className="size-3.5 shrink-0" aria-hidden="true" />
          {avatar.createdAt ? (
            <time dateTime={avatar.createdAt}>{formatCardDate(avatar.createdAt)}</time>
          ) : (
            formatCardDate(null)
          )}
        </span>
      </div>
    </article>
  );
}
