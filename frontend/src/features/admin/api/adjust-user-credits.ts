import {
  adminCreditAdjustmentRoute,
  adminSummaryRoute,
  adminUsersRoute,
  type AdminPage,
  type AdminUser,
  type AdminUserDetail,
  type CreditAdjustmentRequest,
  type CreditAdjustmentResponse,
} from '@likeness/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { withId } from './admin-paths';
import { adminUserQueryOptions } from './get-admin-user';

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

/** Writes the ledger's answer into the cached user and the user's rows in the cached lists. */
function showBalance(queryClient: QueryClient, { userId, balance, available }: CreditAdjustmentResponse): void {
  queryClient.setQueryData(adminUserQueryOptions(userId).queryKey, (detail: AdminUserDetail | undefined) =>
    detail && detail.balance.balance !== balance
      ? { ...detail, user: { ...detail.user, credits: available }, balance: { balance, available } }
      : detail,
  );
  queryClient.setQueriesData<AdminPage<AdminUser>>({ queryKey: [adminUsersRoute.path] }, (page) =>
    page?.items.some((user) => user.id === userId && user.credits !== available)
      ? { ...page, items: page.items.map((user) => (user.id === userId ? { ...user, credits: available } : user)) }
      : page,
  );
}

/**
 * Afterwards the user's details, the users list and the totals load again. The admin views are
 * read models that follow billing's events a moment later, so what they answer right after the
 * adjustment may not have it yet: the ledger's own answer (the response) is shown over them.
 */
export function useAdjustUserCredits(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreditAdjustmentRequest) => adjustUserCredits(userId, request),
    onSuccess: async (result) => {
      showBalance(queryClient, result);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserQueryOptions(userId).queryKey }),
        queryClient.invalidateQueries({ queryKey: [adminUsersRoute.path] }),
        queryClient.invalidateQueries({ queryKey: [adminSummaryRoute.path] }),
      ]);
      showBalance(queryClient, result);
    },
  });
}
