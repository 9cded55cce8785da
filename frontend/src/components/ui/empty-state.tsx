import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  /** The title's heading level, so it fits the page's outline. */
  headingLevel?: 'h2' | 'h3';
  description: ReactNode;
  /** What to do about it: usually one button. */
  action?: ReactNode;
}

/** A list with nothing in it yet: what is missing and what to do about it. */
export function EmptyState({ icon: Icon, title, headingLevel: Heading = 'h2', description, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-2xl border border-dashed px-6 py-14 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-primary/10 text-primary">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <div className="flex flex-col gap-1.5">
        <Heading className="text-lg font-semibold tracking-tight">{title}</Heading>
        <p className="max-w-md text-sm text-muted-foreground">{description}</p>
      </div>
      {action}
    </div>
  );
}
