import {
  adminGenerationJobsRoute,
  type AdminGenerationJob,
  type AdminGenerationJobsQuery,
  type AdminPage,
} from '@likeness/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { withQuery } from './admin-paths';

export type AdminJobsFilter = Partial<Pick<AdminGenerationJobsQuery, 'cursor' | 'q' | 'sort' | 'status' | 'userId'>>;

/** GET /api/admin/generation-jobs: one page of generation jobs, optionally of one status or one user. */
export function getAdminGenerationJobs(
  filter: AdminJobsFilter,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminPage<AdminGenerationJob>> {
  return apiRequest('GET', withQuery(adminGenerationJobsRoute.path, filter), {
    schema: adminGenerationJobsRoute.response,
    signal,
  });
}

export function adminGenerationJobsQueryOptions(filter: AdminJobsFilter) {
  return queryOptions({
    queryKey: [adminGenerationJobsRoute.path, filter],
    queryFn: ({ signal }) => getAdminGenerationJobs(filter, { signal }),
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

export function useAdminGenerationJobs(filter: AdminJobsFilter) {
  return useQuery({ ...adminGenerationJobsQueryOptions(filter), placeholderData: keepPreviousData });
}
