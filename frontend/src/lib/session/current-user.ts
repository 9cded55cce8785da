import { currentUserSchema, type CurrentUser } from '@likeness/contracts';
import { hashKey, queryOptions, type QueryClient } from '@tanstack/react-query';
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

/**
 * Forgets the session in this tab once the server has ended it (a logout, a deleted account):
 * the user becomes a visitor and nothing cached for them is kept.
 */
export function clearSession(queryClient: QueryClient): void {
  const { queryKey } = currentUserQueryOptions();
  // Sign out first so every session observer sees `null` at once. (`queryClient.clear()`
  // would detach them from the session query, and they would keep showing the old user.)
  queryClient.setQueryData(queryKey, null);
  // Then drop everything else cached for the previous user: the effect of `clear()`.
  const sessionHash = hashKey(queryKey);
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== sessionHash });
  queryClient.getMutationCache().clear();
}

/**
 * SPEC §6: the administrator sees the Admin link and /admin. The server's role decides (DESIGN §5:
 * the administrator is the user with id 1, made so by the bootstrap); the server refuses every
 * admin call to anyone else whatever the client shows.
 */
export function isAdmin(user: Pick<CurrentUser, 'role'> | null): boolean {
  return user?.role === 'admin';
}
