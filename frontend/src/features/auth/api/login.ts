import { currentUserSchema, type CurrentUser, type LoginRequest } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryOptions } from '@/lib/session/current-user';

/** POST /api/login: `username` may be a username or an e-mail address. */
export function login(credentials: LoginRequest): Promise<CurrentUser> {
  return apiRequest('POST', '/api/login', { body: credentials, schema: currentUserSchema });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
    },
  });
}
