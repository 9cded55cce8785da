import { messageResponseSchema, type DeleteAccountRequest, type MessageResponse } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * DELETE /api/account: confirmed with the password. The server ends every session and clears the
 * cookies; the caller then forgets the session here (see `clearSession`).
 */
export function deleteAccount(request: DeleteAccountRequest): Promise<MessageResponse> {
  return apiRequest('DELETE', '/api/account', { body: request, schema: messageResponseSchema });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
