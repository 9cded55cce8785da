import { CircleAlert, RotateCcw } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Button } from './button';

interface LoadErrorProps {
  /** What could not be loaded, as it ends the sentence: "your avatars". */
  what: string;
  onRetry: () => void;
  /** Inside a card: tighter. */
  compact?: boolean;
}

/** A list that could not be loaded, with a way to try again. */
export function LoadError({ what, onRetry, compact = false }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-center gap-3 border border-dashed text-center',
        compact ? 'rounded-xl p-8' : 'rounded-2xl p-10',
      )}
    >
      <CircleAlert className="size-6 text-destructive" aria-hidden="true" />
      <p className="font-medium">We couldn&apos;t load {what}.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCcw aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
