import { messageResponseSchema, type ChangePasswordRequest, type MessageResponse } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/change-password: the user's own password; other sessions end, this one stays signed in. */
export function changePassword(request: ChangePasswordRequest): Promise<MessageResponse> {
  return apiRequest('POST', '/api/change-password', { body: request, schema: messageResponseSchema });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
