import {
  adminCreditAdjustmentRoute,
  adminSummaryRoute,
  adminUserRoute,
  adminUsersRoute,
  type CreditAdjustmentRequest,
  type CreditAdjustmentResponse,
} from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { withId } from './admin-paths';

/**
 * POST /api/admin/users/{id}/credits: grants (positive delta) or deducts credits with a reason;
 * the same `requestId` counts once, so a retry after a lost answer is safe.
 */
export function adjustUserCredits(userId: number, request: CreditAdjustmentRequest): Promise<CreditAdjustmentResponse> {
  return apiRequest('POST', withId(adminCreditAdjustmentRoute.path, userId), {
    body: request,
    schema: adminCreditAdjustmentRoute.response,
  });
}

/** Afterwards the user's details, the users list (credits) and the totals (credits outstanding) load again. */
export function useAdjustUserCredits(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreditAdjustmentRequest) => adjustUserCredits(userId, request),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [adminUserRoute.path, { userId }] }),
        queryClient.invalidateQueries({ queryKey: [adminUsersRoute.path] }),
        queryClient.invalidateQueries({ queryKey: [adminSummaryRoute.path] }),
      ]),
  });
}
