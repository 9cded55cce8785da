import { adminUserRoute, type AdminUserDetail } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { withId } from './admin-paths';

/** GET /api/admin/users/{id}: one user's balance, payments, models and recent jobs. */
export function getAdminUser(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<AdminUserDetail> {
  return apiRequest('GET', withId(adminUserRoute.path, userId), { schema: adminUserRoute.response, signal });
}

export function adminUserQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [adminUserRoute.path, { userId }],
    queryFn: ({ signal }) => getAdminUser(userId, { signal }),
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

export function useAdminUser(userId: number) {
  return useQuery(adminUserQueryOptions(userId));
}
