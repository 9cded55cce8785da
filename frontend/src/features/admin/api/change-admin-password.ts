import { adminChangePasswordRoute, type AdminChangePasswordRequest, type MessageResponse } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/admin/change-password: the administrator's own password, under the stricter rules. */
export function changeAdminPassword(request: AdminChangePasswordRequest): Promise<MessageResponse> {
  return apiRequest('POST', adminChangePasswordRoute.path, {
    body: request,
    schema: adminChangePasswordRoute.response,
  });
}

export function useChangeAdminPassword() {
  return useMutation({ mutationFn: changeAdminPassword });
}
