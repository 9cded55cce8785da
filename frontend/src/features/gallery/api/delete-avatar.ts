import { deletedResponseSchema } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { AVATARS_QUERY_KEY } from '@/lib/avatars/get-avatars';
import { forgetAvatars } from './avatar-cache';

/** DELETE /api/avatars/{id}: removes one of the user's avatars; its share link stops working. */
export function deleteAvatar(id: number): Promise<{ deleted: true }> {
  return apiRequest('DELETE', `/api/avatars/${id}`, { schema: deletedResponseSchema });
}

export function useDeleteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAvatar,
    onSuccess: (_result, id) => {
      // Gone from every list at once; the refetch then confirms them.
      forgetAvatars(queryClient, [id]);
      void queryClient.invalidateQueries({ queryKey: AVATARS_QUERY_KEY });
    },
  });
}
