import { messageResponseSchema, type MessageResponse, type RequestPasswordResetRequest } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/request-password-reset: the same answer whether or not the address has an account. */
export function requestPasswordReset(request: RequestPasswordResetRequest): Promise<MessageResponse> {
  return apiRequest('POST', '/api/request-password-reset', { body: request, schema: messageResponseSchema });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
