import { X } from 'lucide-react';
import { useObjectUrlRef } from '@/hooks/use-object-url-ref';

interface SelfiePreviewProps {
  file: File;
  disabled?: boolean;
  onRemove: () => void;
}

/** A picked file before upload: its preview and a way to take it out again. */
export function SelfiePreview({ file, disabled, onRemove }: SelfiePreviewProps) {
  const previewRef = useObjectUrlRef(file);
  return (
    <li className="relative aspect-square overflow-hidden rounded-lg border bg-muted">
      <img ref={previewRef} alt={file.name} className="size-full object-cover" />
      <button
        type="button"
        aria-label={`Remove ${file.name}`}
        title="Remove"
        disabled={disabled}
        onClick={onRemove}
        className="absolute top-1 right-1 grid size-7 place-items-center rounded-full bg-background/90 text-foreground shadow-sm ring-1 ring-border backdrop-blur transition-colors hover:bg-destructive hover:text-destructive-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-0"
      >
        <X className="size-3.5" aria-hidden="true" />
      </button>
    </li>
  );
}
