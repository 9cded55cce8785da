import { ChevronDown, type LucideIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface CollapsibleSectionProps {
  title: string;
  icon: LucideIcon;
  /** A short line under the title (e.g. how many features are chosen). */
  summary?: ReactNode;
  defaultOpen?: boolean;
  /** Controls shown beside the title, open or closed (e.g. "Random Look"). */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
  /** Marks the section for the onboarding tour (SPEC §2). */
  'data-tour'?: string;
}

/** A titled panel whose body opens and closes with a disclosure button. */
export function CollapsibleSection({
  title,
  icon: Icon,
  summary,
  defaultOpen = false,
  actions,
  className,
  children,
  'data-tour': dataTour,
}: CollapsibleSectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section data-tour={dataTour} className={cn('rounded-xl border bg-muted/30', className)}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 p-3 sm:px-4">
        {/* At least 12rem for the title, so on a phone the actions move under it instead of squeezing it. */}
        <h3 className="min-w-48 flex-1">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen((current) => !current)}
            className="group flex w-full items-center gap-2.5 rounded-lg text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
          >
            <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            <span className="flex min-w-0 flex-col">
              <span className="font-medium">{title}</span>
              {summary ? <span className="text-xs font-normal text-muted-foreground">{summary}</span> : null}
            </span>
            <ChevronDown
              aria-hidden="true"
              className={cn(
                'ml-auto size-4 shrink-0 text-muted-foreground transition-transform duration-150',
                open && 'rotate-180',
              )}
            />
          </button>
        </h3>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      <div id={bodyId} hidden={!open} className="border-t px-3 py-4 sm:px-4">
        {children}
      </div>
    </section>
  );
}
