import { Sparkles } from 'lucide-react';
import { cn } from '@/lib/cn';

interface LogoProps {
  className?: string;
  /** `onBrand` draws the mark for placement on the brand gradient. */
  tone?: 'default' | 'onBrand';
}

/** The brand mark and wordmark; the text is the accessible name of whatever wraps it. */
export function Logo({ className, tone = 'default' }: LogoProps) {
  return (
    <span className={cn('inline-flex items-center gap-2.5 text-lg font-semibold tracking-tight', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'grid size-8 place-items-center rounded-[10px] text-white',
          tone === 'default'
            ? 'bg-brand-gradient shadow-md shadow-fuchsia-500/25'
            : 'bg-white/20 ring-1 ring-white/35 backdrop-blur',
        )}
      >
        <Sparkles className="size-[18px]" strokeWidth={2.25} />
      </span>
      <span>Likeness</span>
    </span>
  );
}
