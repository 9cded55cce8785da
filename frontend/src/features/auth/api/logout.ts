import { hashKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryOptions } from './get-current-user';

/**
 * POST /api/logout: the server revokes the session and clears its cookies. Any 2xx answer
 * means signed out, so the `{ success: true }` body is not inspected.
 */
export async function logout(): Promise<void> {
  await apiRequest('POST', '/api/logout');
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      const { queryKey } = currentUserQueryOptions();
      // Sign out first so every session observer sees `null` at once. (`queryClient.clear()`
      // would detach them from the session query, and they would keep showing the old user.)
      queryClient.setQueryData(queryKey, null);
      // Then drop everything else cached for the previous user: the effect of `clear()`.
      const sessionHash = hashKey(queryKey);
      queryClient.removeQueries({ predicate: (query) => query.queryHash !== sessionHash });
      queryClient.getMutationCache().clear();
    },
    onError: (error) => {
      console.error('Logout failed', error);
    },
  });
}
