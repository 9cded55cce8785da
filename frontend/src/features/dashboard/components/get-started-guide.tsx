import { ArrowRight, Check, Coins, Rocket, Sparkles, Upload, Wand2 } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import type { FirstRunStep, FirstRunStepId } from '../utils/first-run-steps';

const icons: Record<FirstRunStepId, typeof Coins> = { buy: Coins, upload: Upload, train: Wand2, create: Sparkles };

const stateLabels: Record<FirstRunStep['state'], string> = {
  done: 'Done',
  next: 'Next step',
  waiting: 'In progress',
  later: 'Later',
};

/**
 * A new account's way to its first avatar: buy → upload → train → create, each step done or next.
 * `loading`: what the account holds is still arriving; the guide keeps its final size (the steps'
 * titles and links are fixed), their states and the next action drawn as placeholders.
 */
export function GetStartedGuide({ steps, loading = false }: { steps: FirstRunStep[]; loading?: boolean }) {
  const headingId = useId();
  const doneCount = steps.filter((step) => step.state === 'done').length;
  const next = steps.find((step) => step.state === 'next');

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={loading || undefined}
      className="relative overflow-hidden rounded-2xl border bg-card p-5 text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)] sm:p-6"
    >
      <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <Rocket className="size-5 text-primary" aria-hidden="true" />
            Get Started
          </h2>
          <p className="text-sm text-muted-foreground">Four steps from your selfies to studio-quality photos.</p>
        </div>
        {loading ? (
          <p role="status" className="h-5 w-24 shrink-0 animate-pulse rounded bg-muted">
            <span className="sr-only">Loading your creative space...</span>
          </p>
        ) : (
          <p className="shrink-0 text-sm font-medium text-muted-foreground tabular-nums">
            {doneCount} of {steps.length} done
          </p>
        )}
      </div>

      <ol className="mt-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, index) => (
          <li key={step.id} className="flex" data-tour={step.id === 'buy' ? 'credits' : undefined}>
            <StepCard step={step} number={index + 1} loading={loading} />
          </li>
        ))}
      </ol>

      {loading ? (
        <span aria-hidden="true" className="mt-5 block h-11 w-full animate-pulse rounded-lg bg-muted sm:w-56" />
      ) : next ? (
        <Button asChild variant="brand" size="lg" className="mt-5 w-full sm:w-auto">
          <Link to={next.to}>
            {next.action}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </section>
  );
}

function StepCard({ step, number, loading }: { step: FirstRunStep; number: number; loading: boolean }) {
  const Icon = icons[step.id];
  const current = !loading && (step.state === 'next' || step.state === 'waiting');
  return (
    <Link
      to={step.to}
      aria-current={current ? 'step' : undefined}
      data-state={loading ? undefined : step.state}
      className={cn(
        'group flex w-full flex-col gap-3 rounded-xl border p-4 transition-colors',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        loading && 'bg-muted/30',
        !loading &&
          step.state === 'done' &&
          'border-emerald-200 bg-emerald-50/60 dark:border-emerald-900 dark:bg-emerald-950/25',
        current && 'border-primary/50 bg-primary/[0.04] ring-1 ring-primary/30 dark:bg-primary/[0.08]',
        !loading && step.state === 'later' && 'bg-muted/30 hover:border-primary/30',
      )}
    >
      <span className="flex items-center justify-between gap-2">
        <span
          className={cn(
            'grid size-9 shrink-0 place-items-center rounded-lg',
            !loading && step.state === 'done'
              ? 'bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950'
              : 'bg-primary/10 text-primary',
          )}
        >
          {!loading && step.state === 'done' ? (
            <Check className="size-[18px]" strokeWidth={3} aria-hidden="true" />
          ) : (
            <Icon className="size-[18px]" aria-hidden="true" />
          )}
        </span>
        {loading ? (
          <span aria-hidden="true" className="h-5 w-16 animate-pulse rounded-full bg-muted" />
        ) : (
          <StateBadge state={step.state} />
        )}
      </span>
      <span className="flex flex-col gap-1">
        <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Step {number}</span>
        <span className="font-semibold">{step.title}</span>
        <span className="text-sm leading-relaxed text-muted-foreground">{step.text}</span>
      </span>
      {loading ? (
        <span aria-hidden="true" className="mt-auto h-5 w-28 animate-pulse rounded bg-muted" />
      ) : (
        <span className="mt-auto text-sm font-medium tabular-nums">{step.progress}</span>
      )}
    </Link>
  );
}

function StateBadge({ state }: { state: FirstRunStep['state'] }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium',
        state === 'done' && 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
        (state === 'next' || state === 'waiting') && 'bg-primary text-primary-foreground',
        state === 'later' && 'bg-muted text-muted-foreground',
      )}
    >
      {state === 'waiting' ? <Spinner className="size-3" /> : null}
      {stateLabels[state]}
    </span>
  );
}
