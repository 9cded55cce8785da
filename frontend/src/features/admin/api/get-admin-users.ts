import { adminUsersRoute, type AdminUser, type AdminUsersQuery, type AdminPage } from '@likeness/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { withQuery } from './admin-paths';

export type AdminUsersFilter = Partial<Pick<AdminUsersQuery, 'cursor' | 'q' | 'sort'>>;

/** GET /api/admin/users: one page of users, newest first unless asked otherwise. */
export function getAdminUsers(
  filter: AdminUsersFilter,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminPage<AdminUser>> {
  return apiRequest('GET', withQuery(adminUsersRoute.path, filter), { schema: adminUsersRoute.response, signal });
}

export function adminUsersQueryOptions(filter: AdminUsersFilter) {
  return queryOptions({
    queryKey: [adminUsersRoute.path, filter],
    queryFn: ({ signal }) => getAdminUsers(filter, { signal }),
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

export function useAdminUsers(filter: AdminUsersFilter) {
  return useQuery({ ...adminUsersQueryOptions(filter), placeholderData: keepPreviousData });
}
