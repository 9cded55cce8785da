import { adminSummaryRoute, type AdminSummary } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';

/** GET /api/admin/summary: the totals on the cards. */
export function getAdminSummary({ signal }: { signal?: AbortSignal } = {}): Promise<AdminSummary> {
  return apiRequest('GET', adminSummaryRoute.path, { schema: adminSummaryRoute.response, signal });
}

export function adminSummaryQueryOptions() {
  return queryOptions({
    queryKey: [adminSummaryRoute.path],
    queryFn: ({ signal }) => getAdminSummary({ signal }),
    // Users sign up and pay while no one watches the dashboard.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

export function useAdminSummary() {
  return useQuery(adminSummaryQueryOptions());
}
