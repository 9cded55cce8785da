import { adminJobStatusSchema, type AdminGenerationJob, type AdminJobStatus } from '@likeness/contracts';
import { Sparkles } from 'lucide-react';
import { StatusBadge } from '@/components/ui/status-badge';
import { useAdminGenerationJobs } from '../api/get-admin-generation-jobs';
import { useListFilters } from '../hooks/use-list-filters';
import type { CsvColumn } from '../utils/csv';
import { formatRelativeTime, truncate } from '../utils/format';
import { jobStatusDisplay } from '../utils/statuses';
import { AdminList, type AdminColumn } from './admin-list';
import { IdCell, ListSearch, ListSelect, sortOptions, TimeCell } from './list-controls';
import { UserLink } from './user-link';

/** How much of a prompt fits the table; the whole prompt shows on hover. */
export const PROMPT_PREVIEW_LENGTH = 60;

const csvColumns: readonly CsvColumn<AdminGenerationJob>[] = [
  { header: 'id', value: (job) => job.id },
  { header: 'userId', value: (job) => job.userId },
  { header: 'promptText', value: (job) => job.promptText },
  { header: 'status', value: (job) => job.status },
  { header: 'numOutputs', value: (job) => job.numOutputs },
  { header: 'failureReason', value: (job) => job.failureReason },
  { header: 'durationMs', value: (job) => job.durationMs },
  { header: 'createdAt', value: (job) => job.createdAt },
  { header: 'finishedAt', value: (job) => job.finishedAt },
];

type StatusChoice = AdminJobStatus | 'all';
const statusOptions: readonly { value: StatusChoice; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  ...adminJobStatusSchema.options.map((status) => ({ value: status, label: jobStatusDisplay[status].label })),
];

/** A job's status badge (SPEC §2). */
export function JobStatusBadge({ status }: { status: AdminJobStatus }) {
  return <StatusBadge tone={jobStatusDisplay[status].tone}>{jobStatusDisplay[status].label}</StatusBadge>;
}

/** A prompt cut to fit, whole in its title (hover) and for screen readers. */
export function PromptCell({ prompt }: { prompt: string }) {
  const short = truncate(prompt, PROMPT_PREVIEW_LENGTH);
  return (
    <span title={prompt} className="block max-w-80">
      <span aria-hidden={short !== prompt || undefined}>{short}</span>
      {short !== prompt ? <span className="sr-only">{prompt}</span> : null}
    </span>
  );
}

/** Why a job failed, or a dash. */
export function FailureReason({ reason }: { reason: string | null }) {
  if (!reason) return <span className="text-muted-foreground">—</span>;
  return <span className="text-sm text-destructive">{reason}</span>;
}

/** SPEC §2 Generation Jobs: id, user id, prompt truncated, status badge, created; and why a job failed. */
export function GenerationJobsTab({ onOpenUser }: { onOpenUser: (userId: number) => void }) {
  const list = useListFilters<{ status?: AdminJobStatus }>({});
  const query = useAdminGenerationJobs(list.request);

  const columns: readonly AdminColumn<AdminGenerationJob>[] = [
    {
      header: 'ID',
      cell: (job) => <IdCell id={job.id} />,
    },
    {
      header: 'User ID',
      cell: (job) => (
        <UserLink userId={job.userId} onOpen={onOpenUser}>
          {job.userId}
        </UserLink>
      ),
      className: 'tabular-nums',
    },
    { header: 'Prompt', cell: (job) => <PromptCell prompt={job.promptText} /> },
    { header: 'Status', cell: (job) => <JobStatusBadge status={job.status} /> },
    { header: 'Created', cell: (job) => <TimeCell iso={job.createdAt}>{formatRelativeTime(job.createdAt)}</TimeCell> },
    { header: 'Failure reason', cell: (job) => <FailureReason reason={job.failureReason} />, className: 'min-w-48' },
  ];

  return (
    <AdminList
      label="Generation jobs"
      query={query}
      pages={list.pages}
      columns={columns}
      rowKey={(job) => job.id}
      csv={{ name: 'generation-jobs', columns: csvColumns }}
      filtered={list.filtered}
      empty={{ icon: Sparkles, title: 'No generation jobs yet', description: 'Every avatar run will be listed here.' }}
      toolbar={
        <>
          <ListSearch
            id="admin-jobs-search"
            label="Search jobs"
            placeholder="User id or job id"
            value={list.search}
            onChange={list.setSearch}
          />
          <ListSelect
            id="admin-jobs-status"
            label="Status"
            value={list.filters.status ?? 'all'}
            onChange={(status) => list.setFilter('status', status === 'all' ? undefined : status)}
            options={statusOptions}
          />
          <ListSelect
            id="admin-jobs-sort"
            label="Order"
            value={list.sort}
            onChange={list.setSort}
            options={sortOptions}
          />
        </>
      }
    />
  );
}
