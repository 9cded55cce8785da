import { adminPaymentStatusSchema, type AdminPayment, type AdminPaymentStatus } from '@likeness/contracts';
import { CreditCard } from 'lucide-react';
import { StatusBadge } from '@/components/ui/status-badge';
import { useAdminPayments } from '../api/get-admin-payments';
import { useListFilters } from '../hooks/use-list-filters';
import type { CsvColumn } from '../utils/csv';
import { formatCentsAsDollars, formatCount, formatDateTime } from '../utils/format';
import { paymentStatusDisplay } from '../utils/statuses';
import { AdminList, type AdminColumn } from './admin-list';
import { IdCell, ListSearch, ListSelect, sortOptions, TimeCell } from './list-controls';
import { UserLink } from './user-link';

const csvColumns: readonly CsvColumn<AdminPayment>[] = [
  { header: 'id', value: (payment) => payment.id },
  { header: 'userId', value: (payment) => payment.userId },
  { header: 'amount', value: (payment) => (payment.amount / 100).toFixed(2) },
  { header: 'credits', value: (payment) => payment.credits },
  { header: 'status', value: (payment) => payment.status },
  { header: 'refundedAmount', value: (payment) => (payment.refundedAmount / 100).toFixed(2) },
  { header: 'packageId', value: (payment) => payment.packageId },
  { header: 'createdAt', value: (payment) => payment.createdAt },
];

type StatusChoice = AdminPaymentStatus | 'all';
const statusOptions: readonly { value: StatusChoice; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  ...adminPaymentStatusSchema.options.map((status) => ({ value: status, label: paymentStatusDisplay[status].label })),
];

/** SPEC §2 Payments: id, user id, amount in dollars, credits, a status badge, date. */
export function PaymentsTab({ onOpenUser }: { onOpenUser: (userId: number) => void }) {
  const list = useListFilters<{ status?: AdminPaymentStatus }>({});
  const query = useAdminPayments(list.request);

  const columns: readonly AdminColumn<AdminPayment>[] = [
    {
      header: 'ID',
      cell: (payment) => <IdCell id={payment.id} />,
    },
    {
      header: 'User ID',
      cell: (payment) => (
        <UserLink userId={payment.userId} onOpen={onOpenUser}>
          {payment.userId}
        </UserLink>
      ),
      className: 'tabular-nums',
    },
    {
      header: 'Amount',
      cell: (payment) => (
        <span className="flex flex-col items-end">
          {formatCentsAsDollars(payment.amount)}
          {payment.refundedAmount > 0 ? (
            <span className="text-xs text-muted-foreground">
              {formatCentsAsDollars(payment.refundedAmount)} returned
            </span>
          ) : null}
        </span>
      ),
      className: 'text-right tabular-nums',
    },
    { header: 'Credits', cell: (payment) => formatCount(payment.credits), className: 'text-right tabular-nums' },
    {
      header: 'Status',
      cell: (payment) => (
        <StatusBadge tone={paymentStatusDisplay[payment.status].tone}>
          {paymentStatusDisplay[payment.status].label}
        </StatusBadge>
      ),
    },
    {
      header: 'Date',
      cell: (payment) => <TimeCell iso={payment.createdAt}>{formatDateTime(payment.createdAt)}</TimeCell>,
    },
  ];

  return (
    <AdminList
      label="Payments"
      query={query}
      pages={list.pages}
      columns={columns}
      rowKey={(payment) => payment.id}
      csv={{ name: 'payments', columns: csvColumns }}
      filtered={list.filtered}
      empty={{ icon: CreditCard, title: 'No payments yet', description: 'Credit purchases will be listed here.' }}
      toolbar={
        <>
          <ListSearch
            id="admin-payments-search"
            label="Search payments"
            placeholder="User id or payment id"
            value={list.search}
            onChange={list.setSearch}
          />
          <ListSelect
            id="admin-payments-status"
            label="Status"
            value={list.filters.status ?? 'all'}
            onChange={(status) => list.setFilter('status', status === 'all' ? undefined : status)}
            options={statusOptions}
          />
          <ListSelect
            id="admin-payments-sort"
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
