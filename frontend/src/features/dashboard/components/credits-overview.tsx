import type { UseQueryResult } from '@tanstack/react-query';
import { Boxes, Coins, Images, Plus, Sparkles } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

interface CreditsOverviewProps {
  credits: number;
  avatarCount: UseQueryResult<number>;
  trainedModelCount: UseQueryResult<number>;
  generationCount: UseQueryResult<number>;
}

const surface =
  'rounded-2xl border bg-card text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]';

/** SPEC §2: the balance (shown once, beside its Buy More Credits) and the quick stats, each tile as wide as its content. */
export function CreditsOverview({ credits, avatarCount, trainedModelCount, generationCount }: CreditsOverviewProps) {
  return (
    <div className="flex flex-col gap-4 lg:flex-row lg:items-stretch">
      <section
        data-tour="credits"
        aria-labelledby="dashboard-credits-heading"
        className={`${surface} relative flex flex-wrap items-center justify-between gap-x-6 gap-y-4 overflow-hidden p-5 lg:flex-1`}
      >
        <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
        <div className="flex items-center gap-4">
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
            <Coins className="size-5" aria-hidden="true" />
          </span>
          <div>
            <h2 id="dashboard-credits-heading" className="text-sm font-medium text-muted-foreground">
              Available credits
            </h2>
            <p className="text-3xl leading-tight font-semibold tabular-nums">{credits.toLocaleString('en-US')}</p>
          </div>
        </div>
        <Button asChild variant="brand">
          <Link to={paths.credits}>
            <Plus aria-hidden="true" />
            Buy More Credits
          </Link>
        </Button>
      </section>

      <section aria-labelledby="dashboard-stats-heading" className="flex flex-col gap-2 lg:justify-center">
        <h2 id="dashboard-stats-heading" className="sr-only">
          Quick Stats
        </h2>
        <dl className="grid grid-cols-3 gap-3 lg:flex">
          <Stat icon={Images} label="Avatars Created" value={avatarCount} />
          <Stat icon={Boxes} label="Trained Models" value={trainedModelCount} />
          <Stat icon={Sparkles} label="Generations" value={generationCount} />
        </dl>
      </section>
    </div>
  );
}

interface StatProps {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  value: UseQueryResult<number>;
}

function Stat({ icon: Icon, label, value }: StatProps) {
  return (
    <div className={`${surface} flex min-w-0 flex-col gap-1 px-4 py-3 lg:h-full lg:justify-center lg:px-5`}>
      <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground sm:text-sm">
        <Icon className="hidden size-4 shrink-0 text-primary sm:block" aria-hidden="true" />
        {label}
      </dt>
      <dd className="order-first text-2xl font-semibold tabular-nums">
        <StatValue value={value} />
      </dd>
    </div>
  );
}

function StatValue({ value }: { value: UseQueryResult<number> }) {
  if (value.isSuccess) return value.data;
  if (value.isPending) {
    return (
      <span className="inline-block h-7 w-10 animate-pulse rounded bg-muted align-middle">
        <span className="sr-only">Loading</span>
      </span>
    );
  }
  return (
    <span title="Couldn't load this number" className="text-muted-foreground">
      –<span className="sr-only">Unavailable</span>
    </span>
  );
}
