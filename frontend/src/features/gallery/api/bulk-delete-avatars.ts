import { bulkDeleteAvatarsResponseSchema } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { AVATARS_QUERY_KEY } from '@/lib/avatars/get-avatars';
import { forgetAvatars } from './avatar-cache';

/** POST /api/avatars/bulk-delete: deletes up to 200 of the user's avatars in one call. */
export function bulkDeleteAvatars(ids: readonly number[]): Promise<{ deleted: number }> {
  return apiRequest('POST', '/api/avatars/bulk-delete', { body: { ids }, schema: bulkDeleteAvatarsResponseSchema });
}

export function useBulkDeleteAvatars() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkDeleteAvatars,
    onSuccess: (_result, ids) => {
      forgetAvatars(queryClient, ids);
      void queryClient.invalidateQueries({ queryKey: AVATARS_QUERY_KEY });
    },
  });
}
