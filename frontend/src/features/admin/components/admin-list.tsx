import type { AdminPage } from '@likeness/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Download, SearchX, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { saveBlob } from '@/lib/save-file';
import type { useCursorPages } from '../hooks/use-cursor-pages';
import { buildCsv, csvBlob, type CsvColumn } from '../utils/csv';

export interface AdminColumn<TRow> {
  header: string;
  cell: (row: TRow) => ReactNode;
  /** Classes for the header and the cells (alignment, width). */
  className?: string;
}

interface AdminListProps<TRow> {
  /** What the table lists, as its caption and in its controls' names: "Users". */
  label: string;
  query: UseQueryResult<AdminPage<TRow>>;
  pages: ReturnType<typeof useCursorPages>;
  columns: readonly AdminColumn<TRow>[];
  rowKey: (row: TRow) => string | number;
  /** The export: the file's name part ("users") and its columns. */
  csv: { name: string; columns: readonly CsvColumn<TRow>[] };
  /** The search box and filters above the table. */
  toolbar: ReactNode;
  /** Said when the page has no rows: nothing yet, or nothing matches the search. */
  empty: { icon: LucideIcon; title: string; description: string };
  /** Whether a search or filter narrows the list (an empty list then says "nothing matches"). */
  filtered: boolean;
}

/**
 * One admin table: its search and filters, the rows of the page on screen (scrolling sideways on a
 * phone), Previous/Next through the server's cursors, and the page as a CSV file.
 */
export function AdminList<TRow>({
  label,
  query,
  pages,
  columns,
  rowKey,
  csv,
  toolbar,
  empty,
  filtered,
}: AdminListProps<TRow>) {
  const rows = query.data?.items ?? [];
  const loadingPage = query.isFetching && (query.isPlaceholderData || query.isPending);

  const exportCsv = () => {
    saveBlob(csvBlob(buildCsv(csv.columns, rows)), `likeness-${csv.name}-page-${pages.page}.csv`);
  };

  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">{toolbar}</div>
        <Button variant="outline" onClick={exportCsv} disabled={rows.length === 0} className="self-start lg:self-auto">
          <Download aria-hidden="true" />
          Export CSV
        </Button>
      </div>

      {query.isPending ? (
        <div className="grid min-h-48 place-items-center">
          <Spinner label={`Loading ${label.toLowerCase()}`} className="size-7 text-primary" />
        </div>
      ) : query.isError ? (
        <LoadError compact what={label.toLowerCase()} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            headingLevel="h3"
            title="Nothing matches"
            description="Try another search or filter."
          />
        ) : (
          <EmptyState icon={empty.icon} headingLevel="h3" title={empty.title} description={empty.description} />
        )
      ) : (
        <div
          className={cn('overflow-x-auto rounded-xl border', query.isPlaceholderData && 'opacity-60')}
          aria-busy={query.isPlaceholderData || undefined}
        >
          <table className="w-full min-w-[44rem] border-collapse text-sm">
            <caption className="sr-only">
              {label}, page {pages.page}
            </caption>
            <thead className="bg-muted/60 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col" className={cn('px-3 py-2.5 whitespace-nowrap', column.className)}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y">
              {rows.map((row) => (
                <tr key={rowKey(row)} className="relative align-top transition-colors hover:bg-muted/40">
                  {columns.map((column) => (
                    <td key={column.header} className={cn('px-3 py-2.5', column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <nav aria-label={`${label} pages`} className="flex items-center justify-between gap-3">
        <Button variant="outline" size="sm" disabled={!pages.hasPrevious || loadingPage} onClick={pages.previous}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <p aria-live="polite" className="flex items-center gap-2 text-sm text-muted-foreground">
          {loadingPage && !query.isPending ? <Spinner label="Loading page" /> : null}
          Page {pages.page}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={!query.data?.nextCursor || loadingPage}
          onClick={() => pages.next(query.data?.nextCursor ?? null)}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </nav>
    </Card>
  );
}
