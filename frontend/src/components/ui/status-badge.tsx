import { Check, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Spinner } from './spinner';

/** What a status means at a glance: waiting, working, done, failed, or something else. */
export type BadgeTone = 'yellow' | 'blue' | 'green' | 'red' | 'grey';

const toneClasses: Record<BadgeTone, string> = {
  yellow: 'bg-yellow-400/20 text-yellow-800 ring-yellow-500/40 dark:bg-yellow-400/15 dark:text-yellow-200',
  blue: 'bg-blue-500/12 text-blue-700 ring-blue-500/35 dark:bg-blue-400/15 dark:text-blue-200',
  green: 'bg-emerald-500/12 text-emerald-700 ring-emerald-500/35 dark:bg-emerald-400/15 dark:text-emerald-200',
  red: 'bg-red-500/10 text-red-700 ring-red-500/35 dark:bg-red-400/15 dark:text-red-200',
  grey: 'bg-muted text-muted-foreground ring-border',
};

function ToneIcon({ tone }: { tone: BadgeTone }) {
  switch (tone) {
    case 'yellow':
      return (
        <span aria-hidden="true" className="relative flex size-2">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-yellow-500 opacity-60 motion-reduce:animate-none" />
          <span className="relative inline-flex size-2 rounded-full bg-yellow-500" />
        </span>
      );
    case 'blue':
      return <Spinner className="size-3.5" />;
    case 'green':
      return <Check className="size-3.5" strokeWidth={3} aria-hidden="true" />;
    case 'red':
      return <X className="size-3.5" strokeWidth={3} aria-hidden="true" />;
    case 'grey':
      return <span aria-hidden="true" className="size-2 rounded-full bg-current opacity-60" />;
  }
}

/** A status in words and colour, with an icon so the colour is never the only signal. */
export function StatusBadge({
  tone,
  className,
  children,
}: {
  tone: BadgeTone;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      data-tone={tone}
      className={cn(
        'inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        toneClasses[tone],
        className,
      )}
    >
      <ToneIcon tone={tone} />
      {children}
    </span>
  );
}
