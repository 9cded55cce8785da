import { Check } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A step of the page's task (upload, select, train), ticked once it is done. */
export function StepNumber({ step, done = false }: { step: number; done?: boolean }) {
  return (
    <span
      className={cn(
        'grid size-7 shrink-0 place-items-center rounded-full text-sm font-semibold tabular-nums',
        done
          ? 'bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950'
          : 'bg-primary text-primary-foreground',
      )}
    >
      {done ? <Check className="size-4" strokeWidth={3} aria-hidden="true" /> : <span aria-hidden="true">{step}</span>}
      <span className="sr-only">{done ? `Step ${step}, done` : `Step ${step}`}</span>
    </span>
  );
}
