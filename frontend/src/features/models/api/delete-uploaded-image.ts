import { deletedResponseSchema } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadedImagesQueryOptions } from '@/lib/uploaded-images/get-uploaded-images';

/** DELETE /api/uploaded-images/{id}: refused with 409 MEDIA.IMAGE_IN_USE while a training uses the selfie. */
export function deleteUploadedImage(id: number): Promise<{ deleted: true }> {
  return apiRequest('DELETE', `/api/uploaded-images/${id}`, { schema: deletedResponseSchema });
}

export function useDeleteUploadedImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUploadedImage,
    onSuccess: (_result, id) => {
      const { queryKey } = uploadedImagesQueryOptions();
      queryClient.setQueryData(queryKey, (images) => images?.filter((image) => image.id !== id));
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
