import type { UploadedImage } from '@likeness/contracts';
import { Check, ImageOff, Lock } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/cn';
import { DeleteSelfieButton } from './delete-selfie-button';

interface SelfieTileProps {
  image: UploadedImage;
  selected: boolean;
  onToggle: () => void;
}

/** One stored selfie in the picker: a checkbox over its thumbnail, and delete unless a training uses it. */
export function SelfieTile({ image, selected, onToggle }: SelfieTileProps) {
  const [imageFailed, setImageFailed] = useState(false);
  return (
    <li className="group/tile relative">
      <label
        className={cn(
          'relative block aspect-square cursor-pointer overflow-hidden rounded-xl bg-muted transition-shadow duration-150',
          'has-[input:focus-visible]:ring-offset-2 has-[input:focus-visible]:ring-offset-background',
          selected ? 'ring-[3px] ring-primary' : 'ring-1 ring-border hover:ring-2 hover:ring-primary/50',
          'has-[input:focus-visible]:ring-[3px] has-[input:focus-visible]:ring-ring',
        )}
      >
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={image.originalFilename}
          className="sr-only"
        />
        {imageFailed ? (
          <span className="grid size-full place-items-center text-muted-foreground">
            <ImageOff className="size-6" aria-hidden="true" />
          </span>
        ) : (
          <img
            src={image.thumbnailUrl}
            alt=""
            loading="lazy"
            decoding="async"
            onError={() => setImageFailed(true)}
            className="size-full object-cover"
          />
        )}
        {selected ? <span aria-hidden="true" className="absolute inset-0 bg-primary/15" /> : null}
        <span
          aria-hidden="true"
          className={cn(
            'absolute top-2 left-2 grid size-6 place-items-center rounded-md border-2 shadow-sm transition-colors',
            selected
              ? 'border-primary bg-primary text-primary-foreground'
              : 'border-white/90 bg-black/25 text-transparent',
          )}
        >
          <Check className="size-4" strokeWidth={3} />
        </span>
        {image.inUse ? (
          <span className="absolute inset-x-1.5 bottom-1.5 inline-flex items-center justify-center gap-1 rounded-full bg-background/90 px-1.5 py-0.5 text-[11px] font-semibold whitespace-nowrap text-foreground shadow-sm backdrop-blur">
            <Lock className="size-3" aria-hidden="true" />
            In training
          </span>
        ) : null}
      </label>
      {image.inUse ? null : (
        // Shown on hover or focus where there is a mouse; always on touch screens.
        <span className="absolute top-1.5 right-1.5 transition-opacity pointer-fine:opacity-0 pointer-fine:group-hover/tile:opacity-100 pointer-fine:has-[:focus-visible]:opacity-100 pointer-fine:has-[[data-state=open]]:opacity-100">
          <DeleteSelfieButton image={image} />
        </span>
      )}
    </li>
  );
}
