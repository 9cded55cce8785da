import { CREDIT_HISTORY_PAGE_SIZE, creditHistoryResponseSchema, type CreditHistoryResponse } from '@likeness/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';

export const CREDIT_HISTORY_PATH = '/api/credit-history';

/** GET /api/credit-history?page=&pageSize=: one page of the user's credit movements, newest first. */
export function getCreditHistory(
  page: number,
  { signal, pageSize = CREDIT_HISTORY_PAGE_SIZE }: { signal?: AbortSignal; pageSize?: number } = {},
): Promise<CreditHistoryResponse> {
  const search = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  return apiRequest('GET', `${CREDIT_HISTORY_PATH}?${search.toString()}`, {
    schema: creditHistoryResponseSchema,
    signal,
  });
}

export function creditHistoryQueryOptions(page: number) {
  return queryOptions({
    queryKey: [CREDIT_HISTORY_PATH, { page }],
    queryFn: ({ signal }) => getCreditHistory(page, { signal }),
    // Purchases, trainings and generations add lines while no one watches this list.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** One page of the history; the previous page stays on screen while the next one loads. */
export function useCreditHistory(page: number) {
  return useQuery({ ...creditHistoryQueryOptions(page), placeholderData: keepPreviousData });
}
