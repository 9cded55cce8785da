import { deletedResponseSchema } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { avatarsQueryOptions } from '@/lib/avatars/get-avatars';

/** DELETE /api/avatars/{id}: removes one of the user's avatars; its share link stops working. */
export function deleteAvatar(id: number): Promise<{ deleted: true }> {
  return apiRequest('DELETE', `/api/avatars/${id}`, { schema: deletedResponseSchema });
}

export function useDeleteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAvatar,
    onSuccess: (_result, id) => {
      const { queryKey } = avatarsQueryOptions();
      // Gone from the grid at once; the refetch then confirms the list.
      queryClient.setQueryData(queryKey, (avatars) => avatars?.filter((avatar) => avatar.id !== id));
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
