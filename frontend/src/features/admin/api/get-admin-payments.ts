import { adminPaymentsRoute, type AdminPage, type AdminPayment, type AdminPaymentsQuery } from '@likeness/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { withQuery } from './admin-paths';

export type AdminPaymentsFilter = Partial<Pick<AdminPaymentsQuery, 'cursor' | 'q' | 'sort' | 'status' | 'userId'>>;

/** GET /api/admin/payments: one page of payments, optionally of one status or one user. */
export function getAdminPayments(
  filter: AdminPaymentsFilter,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminPage<AdminPayment>> {
  return apiRequest('GET', withQuery(adminPaymentsRoute.path, filter), {
    schema: adminPaymentsRoute.response,
    signal,
  });
}

export function adminPaymentsQueryOptions(filter: AdminPaymentsFilter) {
  return queryOptions({
    queryKey: [adminPaymentsRoute.path, filter],
    queryFn: ({ signal }) => getAdminPayments(filter, { signal }),
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

export function useAdminPayments(filter: AdminPaymentsFilter) {
  return useQuery({ ...adminPaymentsQueryOptions(filter), placeholderData: keepPreviousData });
}
