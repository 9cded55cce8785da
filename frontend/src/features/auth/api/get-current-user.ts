import { currentUserSchema, type CurrentUser } from '@likeness/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api-client';

export const CURRENT_USER_PATH = '/api/user';

/** GET /api/user: the signed-in user, or null when nobody is signed in (401). */
export const getCurrentUser = getQueryFn({ on401: 'returnNull', schema: currentUserSchema });

export function currentUserQueryOptions() {
  return queryOptions<CurrentUser | null>({
    queryKey: [CURRENT_USER_PATH],
    queryFn: getCurrentUser,
  });
}
