import { adminTimeseriesRoute, type AdminTimeseries } from '@likeness/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { withQuery } from './admin-paths';

export type TimeseriesDays = 30 | 90;

/** GET /api/admin/timeseries?days=: one point per UTC day, oldest first. */
export function getAdminTimeseries(
  days: TimeseriesDays,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminTimeseries> {
  return apiRequest('GET', withQuery(adminTimeseriesRoute.path, { days }), {
    schema: adminTimeseriesRoute.response,
    signal,
  });
}

export function adminTimeseriesQueryOptions(days: TimeseriesDays) {
  return queryOptions({
    queryKey: [adminTimeseriesRoute.path, { days }],
    queryFn: ({ signal }) => getAdminTimeseries(days, { signal }),
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** The chart keeps the other range on screen while the new one loads. */
export function useAdminTimeseries(days: TimeseriesDays) {
  return useQuery({ ...adminTimeseriesQueryOptions(days), placeholderData: keepPreviousData });
}
