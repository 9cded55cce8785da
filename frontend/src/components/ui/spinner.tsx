import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

interface SpinnerProps extends ComponentProps<'svg'> {
  /** Announced to assistive technology; omit for a decorative spinner inside a labelled control. */
  label?: string;
}

export function Spinner({ label, className, ...props }: SpinnerProps) {
  const icon = <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} {...props} />;
  if (!label) return icon;
  return (
    <span role="status" aria-label={label} className="inline-flex">
      {icon}
    </span>
  );
}

/** A centred spinner for a whole screen or section that is still loading. */
export function PageSpinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <div className={cn('flex min-h-[60dvh] w-full items-center justify-center', className)}>
      <Spinner label={label} className="size-8 text-primary" />
    </div>
  );
}
