import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { clearSession } from '@/lib/session/current-user';

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
    onSuccess: () => clearSession(queryClient),
    onError: (error) => {
      console.error('Logout failed', error);
    },
  });
}
