import { messageResponseSchema, type MessageResponse, type ResetPasswordRequest } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryOptions } from '@/lib/session/current-user';

/** POST /api/reset-password: sets the password with a reset link's token; every session of the user ends. */
export function resetPassword(request: ResetPasswordRequest): Promise<MessageResponse> {
  return apiRequest('POST', '/api/reset-password', { body: request, schema: messageResponseSchema });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A session open in this browser has just ended on the server: ask again who is signed in.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey }),
  });
}
