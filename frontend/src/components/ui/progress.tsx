import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

interface ProgressProps extends Omit<ComponentProps<'div'>, 'children'> {
  /** 0-100. */
  value: number;
}

/** A determinate progress bar; name it with `aria-label` or `aria-labelledby`. */
export function Progress({ value, className, ...props }: ProgressProps) {
  const clamped = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <div
        className="bg-brand-gradient h-full rounded-full transition-[width] duration-300 ease-out"
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
