import type { AdminUserDetail } from '@likeness/contracts';
import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { StatusBadge } from '@/components/ui/status-badge';
import { modelStatusDisplay } from '@/lib/custom-models/model-status';
import { useAdminUser } from '../api/get-admin-user';
import { formatCentsAsDollars, formatCount, formatDateTime, formatRelativeTime } from '../utils/format';
import { paymentStatusDisplay } from '../utils/statuses';
import { CreditAdjustmentForm } from './credit-adjustment-form';
import { FailureReason, JobStatusBadge, PromptCell } from './generation-jobs-tab';
import { IdCell, TimeCell } from './list-controls';

/** One user's details for support: balance, a credit adjustment, payments, models and recent jobs. */
export function UserDetailDialog({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  return (
    <Dialog open={userId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">{userId !== null ? <UserDetail userId={userId} /> : null}</DialogContent>
    </Dialog>
  );
}

function UserDetail({ userId }: { userId: number }) {
  const detail = useAdminUser(userId);

  if (detail.isPending) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>User {userId}</DialogTitle>
          <DialogDescription>Loading their account…</DialogDescription>
        </DialogHeader>
        <div className="grid min-h-40 place-items-center">
          <Spinner label="Loading the user" className="size-7 text-primary" />
        </div>
      </>
    );
  }
  if (detail.isError) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>User {userId}</DialogTitle>
          <DialogDescription>Their account could not be shown.</DialogDescription>
        </DialogHeader>
        <LoadError compact what="this user" onRetry={() => void detail.refetch()} />
      </>
    );
  }

  const { user, balance } = detail.data;
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex flex-wrap items-center gap-2">
          {user.username}
          {user.role === 'admin' ? (
            <span className="rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary">
              Administrator
            </span>
          ) : null}
        </DialogTitle>
        <DialogDescription className="wrap-anywhere">
          {user.email} · ID {user.id} · joined{' '}
          <TimeCell iso={user.createdAt}>{formatRelativeTime(user.createdAt)}</TimeCell>
        </DialogDescription>
      </DialogHeader>

      <section aria-label="Balance and credit adjustment" className="grid gap-4 rounded-xl border p-4">
        <dl className="grid grid-cols-2 gap-4">
          <div>
            <dt className="text-sm text-muted-foreground">Balance</dt>
            <dd className="text-2xl font-semibold tabular-nums">{formatCount(balance.balance)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Available to spend</dt>
            <dd className="text-2xl font-semibold tabular-nums">{formatCount(balance.available)}</dd>
          </div>
        </dl>
        <CreditAdjustmentForm userId={user.id} username={user.username} />
      </section>

      <DetailSection title="Payments" empty="No payments." count={detail.data.payments.length}>
        <DetailTable headers={['ID', 'Amount', 'Credits', 'Status', 'Date']}>
          {detail.data.payments.map((payment) => (
            <tr key={payment.id}>
              <td className="px-3 py-2">
                <IdCell id={payment.id} />
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCentsAsDollars(payment.amount)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(payment.credits)}</td>
              <td className="px-3 py-2">
                <StatusBadge tone={paymentStatusDisplay[payment.status].tone}>
                  {paymentStatusDisplay[payment.status].label}
                </StatusBadge>
              </td>
              <td className="px-3 py-2">
                <TimeCell iso={payment.createdAt}>{formatDateTime(payment.createdAt)}</TimeCell>
              </td>
            </tr>
          ))}
        </DetailTable>
      </DetailSection>

      <DetailSection title="Models" empty="No models." count={detail.data.models.length}>
        <DetailTable headers={['ID', 'Name', 'Status', 'Created', 'Failure reason']}>
          {detail.data.models.map((model) => {
            const status = modelStatusDisplay(model.status);
            return (
              <tr key={model.id}>
                <td className="px-3 py-2 tabular-nums">{model.id}</td>
                <td className="px-3 py-2 whitespace-nowrap">{model.modelName ?? '—'}</td>
                <td className="px-3 py-2">
                  <StatusBadge tone={status.tone}>{status.label}</StatusBadge>
                </td>
                <td className="px-3 py-2">
                  <TimeCell iso={model.createdAt}>{formatRelativeTime(model.createdAt)}</TimeCell>
                </td>
                <td className="px-3 py-2">
                  <FailureReason reason={model.failureReason} />
                </td>
              </tr>
            );
          })}
        </DetailTable>
      </DetailSection>

      <DetailSection title="Recent jobs" empty="No generation jobs." count={detail.data.recentJobs.length}>
        <RecentJobs jobs={detail.data.recentJobs} />
      </DetailSection>
    </>
  );
}

function RecentJobs({ jobs }: { jobs: AdminUserDetail['recentJobs'] }) {
  return (
    <DetailTable headers={['Prompt', 'Status', 'Created', 'Failure reason']}>
      {jobs.map((job) => (
        <tr key={job.id}>
          <td className="px-3 py-2">
            <PromptCell prompt={job.promptText} />
          </td>
          <td className="px-3 py-2">
            <JobStatusBadge status={job.status} />
          </td>
          <td className="px-3 py-2">
            <TimeCell iso={job.createdAt}>{formatRelativeTime(job.createdAt)}</TimeCell>
          </td>
          <td className="px-3 py-2">
            <FailureReason reason={job.failureReason} />
          </td>
        </tr>
      ))}
    </DetailTable>
  );
}

function DetailSection({
  title,
  empty,
  count,
  children,
}: {
  title: string;
  empty: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <section className="grid gap-2">
      <h3 className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({count})</span>
      </h3>
      {count === 0 ? <p className="text-sm text-muted-foreground">{empty}</p> : children}
    </section>
  );
}

function DetailTable({ headers, children }: { headers: readonly string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <table className="w-full min-w-[32rem] text-sm">
        <thead className="bg-muted/60 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-3 py-2 whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y align-top">{children}</tbody>
      </table>
    </div>
  );
}
