import { currentUserSchema, type CurrentUser, type RegisterRequest } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryOptions } from '@/lib/session/current-user';

/** POST /api/register: creates the account and signs it in (the confirmation never leaves the browser). */
export function register({ username, email, password }: RegisterRequest): Promise<CurrentUser> {
  return apiRequest('POST', '/api/register', { body: { username, email, password }, schema: currentUserSchema });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
    },
  });
}
