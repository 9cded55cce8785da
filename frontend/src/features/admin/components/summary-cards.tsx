import type { AdminSummary } from '@likeness/contracts';
import { Coins, DollarSign, Sparkles, TriangleAlert, Users, Wand2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatCount, formatDollars, formatRate } from '../utils/format';

function StatCard({
  label,
  value,
  icon: Icon,
  detail,
  size = 'large',
}: {
  label: string;
  value: string;
  icon: LucideIcon;
  detail?: ReactNode;
  size?: 'large' | 'small';
}) {
  return (
    <Card className={cn('flex items-start justify-between gap-4', size === 'large' ? 'p-6' : 'p-4')}>
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <p className={cn('font-semibold tracking-tight tabular-nums', size === 'large' ? 'text-3xl' : 'text-xl')}>
          {value}
        </p>
        {detail ? <p className="text-xs text-muted-foreground">{detail}</p> : null}
      </div>
      <span
        aria-hidden="true"
        className={cn(
          'grid shrink-0 place-items-center rounded-xl bg-primary/10 text-primary',
          size === 'large' ? 'size-11' : 'size-9',
        )}
      >
        <Icon className={size === 'large' ? 'size-5' : 'size-4'} />
      </span>
    </Card>
  );
}

/**
 * SPEC §2's three cards (users, revenue in dollars with cents, generations), and beside them what
 * an operator watches: failure rates of generations and trainings, and the credits users hold.
 */
export function SummaryCards({ summary }: { summary: AdminSummary }) {
  const { generations, trainings } = summary;
  return (
    <section aria-label="Totals" className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Users" value={formatCount(summary.totalUsers)} icon={Users} />
        <StatCard
          label="Revenue"
          value={formatDollars(summary.revenue)}
          icon={DollarSign}
          detail={`${formatCount(summary.totalPayments)} ${summary.totalPayments === 1 ? 'payment' : 'payments'}`}
        />
        <StatCard
          label="Total Generations"
          value={formatCount(summary.totalGenerations)}
          icon={Sparkles}
          detail={`${formatCount(generations.completed)} completed, ${formatCount(generations.inProgress)} in progress`}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          size="small"
          label="Generation failure rate"
          value={formatRate(generations.failureRate)}
          icon={TriangleAlert}
          detail={`${formatCount(generations.failed)} failed of ${formatCount(generations.completed + generations.failed)} finished`}
        />
        <StatCard
          size="small"
          label="Trainings"
          value={formatCount(trainings.total)}
          icon={Wand2}
          detail={`${formatRate(trainings.failureRate)} failed · ${formatCount(trainings.inProgress)} in progress`}
        />
        <StatCard
          size="small"
          label="Credits outstanding"
          value={formatCount(summary.creditsOutstanding)}
          icon={Coins}
          detail="Held by users, not yet spent"
        />
      </div>
    </section>
  );
}

export function SummaryCardsSkeleton() {
  return (
    <div role="status" aria-label="Loading the totals" className="grid gap-4 sm:grid-cols-3">
      {[0, 1, 2].map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-6">
          <div className="h-3.5 w-24 animate-pulse rounded bg-muted" />
          <div className="h-8 w-32 animate-pulse rounded bg-muted" />
        </Card>
      ))}
    </div>
  );
}
