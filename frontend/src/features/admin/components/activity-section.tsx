import { ADMIN_TIMESERIES_DAYS } from '@likeness/contracts';
import { lazy, Suspense, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useAdminTimeseries, type TimeseriesDays } from '../api/get-admin-timeseries';

// recharts is big: it loads with the charts, never with another screen.
const ActivityCharts = lazy(() => import('./activity-charts').then((module) => ({ default: module.ActivityCharts })));

function ChartsLoading() {
  return (
    <div className="grid min-h-40 place-items-center">
      <Spinner label="Loading the charts" className="size-7 text-primary" />
    </div>
  );
}

/** Sign-ups, revenue, generations and failed jobs per day over the last 30 or 90 days. */
export function ActivitySection() {
  const [days, setDays] = useState<TimeseriesDays>(30);
  const timeseries = useAdminTimeseries(days);

  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <h2 className="text-lg leading-tight font-semibold tracking-tight">Activity</h2>
          <CardDescription>Per UTC day, today last.</CardDescription>
        </div>
        <div role="group" aria-label="Period" className="inline-flex self-start rounded-lg bg-muted p-1">
          {ADMIN_TIMESERIES_DAYS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={days === option}
              onClick={() => setDays(option)}
              className={cn(
                'h-8 rounded-md px-3 text-sm font-medium transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                days === option
                  ? 'bg-background text-foreground shadow-sm'
                  : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {option} days
            </button>
          ))}
        </div>
      </CardHeader>
      <CardContent
        className={cn(timeseries.isPlaceholderData && 'opacity-60')}
        aria-busy={timeseries.isFetching || undefined}
      >
        {timeseries.isPending ? (
          <ChartsLoading />
        ) : timeseries.isError ? (
          <LoadError compact what="the activity" onRetry={() => void timeseries.refetch()} />
        ) : (
          <Suspense fallback={<ChartsLoading />}>
            <ActivityCharts days={timeseries.data.days} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
