import type { CreditHistoryEntry, CreditHistoryKind } from '@likeness/contracts';
import {
  ArrowUpRight,
  ChevronLeft,
  ChevronRight,
  CircleCheck,
  Gift,
  Hourglass,
  Plus,
  ReceiptText,
  RotateCcw,
  ShoppingBag,
  SlidersHorizontal,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useCreditHistory } from '../api/get-credit-history';
import {
  creditEntryBadge,
  describeCreditChange,
  formatCents,
  formatCreditChange,
  formatEntryDate,
} from '../utils/credit-history';

const kindIcons: Record<CreditHistoryKind, LucideIcon> = {
  welcome: Gift,
  purchase: ShoppingBag,
  hold: Hourglass,
  capture: CircleCheck,
  release: RotateCcw,
  refund: ArrowUpRight,
  dispute: ArrowUpRight,
  adjustment: SlidersHorizontal,
};

/** SPEC §2 Billing: the credit history from the ledger, newest first and paged, and a way to buy more. */
export function BillingTab({ credits }: { credits: number }) {
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle as="h2">Credit history</CardTitle>
          <CardDescription>
            You have{' '}
            <span className="font-semibold text-foreground tabular-nums">{credits.toLocaleString('en-US')}</span>{' '}
            {credits === 1 ? 'credit' : 'credits'}. Work that starts holds its credits; they are charged when it
            succeeds and returned when it fails, so failed work costs nothing.
          </CardDescription>
        </div>
        <Button asChild variant="brand" className="self-start">
          <Link to={paths.plans}>
            <Plus aria-hidden="true" />
            Buy More Credits
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        <CreditHistory />
      </CardContent>
    </Card>
  );
}

function CreditHistory() {
  const [page, setPage] = useState(1);
  const history = useCreditHistory(page);

  if (history.isPending) return <HistorySkeleton />;
  if (history.isError) return <LoadError compact what="your credit history" onRetry={() => void history.refetch()} />;

  const { entries, total, pageSize } = history.data;
  if (total === 0) {
    return (
      <EmptyState
        icon={ReceiptText}
        headingLevel="h3"
        title="No credit history yet"
        description="Purchases, welcome credits and what trainings and generations cost will be listed here."
      />
    );
  }

  const pages = Math.max(1, Math.ceil(total / pageSize));
  const shownPage = history.data.page;
  return (
    <div className="grid gap-4">
      <ul
        aria-label="Credit history, newest first"
        aria-busy={history.isPlaceholderData || undefined}
        className={cn('divide-y rounded-xl border', history.isPlaceholderData && 'opacity-60')}
      >
        {entries.map((entry) => (
          <HistoryLine key={entry.id} entry={entry} />
        ))}
      </ul>
      {pages > 1 ? (
        <nav aria-label="Credit history pages" className="flex items-center justify-between gap-3">
          <Button
            variant="outline"
            size="sm"
            disabled={shownPage <= 1 || history.isPlaceholderData}
            onClick={() => setPage(shownPage - 1)}
          >
            <ChevronLeft aria-hidden="true" />
            Newer
          </Button>
          <p aria-live="polite" className="flex items-center gap-2 text-sm text-muted-foreground">
            {history.isPlaceholderData ? <Spinner label="Loading page" /> : null}
            Page {shownPage} of {pages}
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={shownPage >= pages || history.isPlaceholderData}
            onClick={() => setPage(shownPage + 1)}
          >
            Older
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      ) : null}
    </div>
  );
}

function HistoryLine({ entry }: { entry: CreditHistoryEntry }) {
  const Icon = kindIcons[entry.kind];
  const badge = creditEntryBadge(entry);
  const pending = badge === 'Pending';
  return (
    <li className="flex items-center gap-3 p-3 sm:gap-4 sm:p-4">
      <span
        aria-hidden="true"
        className={cn(
          'grid size-10 shrink-0 place-items-center rounded-xl',
          entry.credits > 0
            ? 'bg-emerald-500/10 text-emerald-700 dark:text-emerald-400'
            : 'bg-muted text-muted-foreground',
        )}
      >
        <Icon className="size-5" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="text-sm font-medium break-words">{entry.description}</p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <span
            className={cn(
              'rounded-full px-2 py-0.5 font-medium',
              pending ? 'bg-amber-500/15 text-amber-700 dark:text-amber-300' : 'bg-muted text-foreground/80',
            )}
          >
            {badge}
          </span>
          <time dateTime={entry.createdAt}>{formatEntryDate(entry.createdAt)}</time>
          {entry.amountCents !== null ? <span>· {formatCents(entry.amountCents)}</span> : null}
        </p>
      </div>
      <p
        className={cn(
          'shrink-0 text-base font-semibold tabular-nums',
          entry.credits > 0 && 'text-emerald-700 dark:text-emerald-400',
          entry.credits === 0 && 'text-muted-foreground',
        )}
      >
        <span aria-hidden="true">{formatCreditChange(entry.credits)}</span>
        <span className="sr-only">{describeCreditChange(entry.credits)}</span>
      </p>
    </li>
  );
}

function HistorySkeleton() {
  return (
    <div role="status" aria-label="Loading your credit history" className="divide-y rounded-xl border">
      {[0, 1, 2, 3].map((key) => (
        <div key={key} className="flex items-center gap-4 p-4">
          <div className="size-10 animate-pulse rounded-xl bg-muted" />
          <div className="flex flex-1 flex-col gap-2">
            <div className="h-3.5 w-2/3 animate-pulse rounded bg-muted" />
            <div className="h-3 w-1/3 animate-pulse rounded bg-muted" />
          </div>
          <div className="h-4 w-10 animate-pulse rounded bg-muted" />
        </div>
      ))}
    </div>
  );
}
