import type { Avatar } from '@likeness/contracts';
import { CalendarDays, ImageOff } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/cn';
import { formatCardDate } from '@/lib/avatars/format-date';
import { promptPreview } from '@/lib/avatars/prompt-preview';

interface AvatarCardProps {
  avatar: Avatar;
  onOpen: (avatar: Avatar) => void;
}

/** One avatar in the grid: a button that opens its details. Its name is the prompt preview and the date. */
export function AvatarCard({ avatar, onOpen }: AvatarCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const preview = promptPreview(avatar.promptText);

  return (
    <button
      type="button"
      aria-haspopup="dialog"
      onClick={() => onOpen(avatar)}
      className={cn(
        'group flex h-full w-full flex-col overflow-hidden rounded-2xl border bg-card text-left text-card-foreground',
        'shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]',
        'transition-[border-color,box-shadow,transform] duration-150 hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
      )}
    >
      <span className="relative block aspect-square w-full overflow-hidden bg-muted">
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
      </span>
      <span className="flex flex-1 flex-col justify-between gap-2 p-3 sm:p-4">
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
      </span>
    </button>
  );
}
