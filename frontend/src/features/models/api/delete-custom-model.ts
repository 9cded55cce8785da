import { deletedResponseSchema } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError } from '@/lib/api-client';
import { customModelsQueryOptions } from '@/lib/custom-models/get-custom-models';
import { uploadedImagesQueryOptions } from '@/lib/uploaded-images/get-uploaded-images';

/** DELETE /api/custom-models/{id}: refused with 409 TRAINING.MODEL_TRAINING while the model trains. */
export function deleteCustomModel(id: number): Promise<{ deleted: true }> {
  return apiRequest('DELETE', `/api/custom-models/${id}`, { schema: deletedResponseSchema });
}

export function useDeleteCustomModel() {
  const queryClient = useQueryClient();
  const models = customModelsQueryOptions().queryKey;
  return useMutation({
    mutationFn: deleteCustomModel,
    onSuccess: (_result, id) => {
      // Gone from the list at once; the refetch then confirms it.
      queryClient.setQueryData(models, (current) => current?.filter((model) => model.id !== id));
      void queryClient.invalidateQueries({ queryKey: models });
      // Its selfies may be free to delete again.
      void queryClient.invalidateQueries({ queryKey: uploadedImagesQueryOptions().queryKey });
    },
    onError: (error) => {
      // Refused because it trains: the list was out of date, so fetch it again.
      if (isApiError(error) && error.status === 409) void queryClient.invalidateQueries({ queryKey: models });
    },
  });
}
