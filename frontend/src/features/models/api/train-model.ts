import type { TrainModelRequest } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError } from '@/lib/api-client';
import { customModelsQueryOptions, listedModelSchema, type ListedModel } from '@/lib/custom-models/get-custom-models';
import { uploadedImagesQueryOptions } from '@/lib/uploaded-images/get-uploaded-images';

/**
 * POST /api/train-model: holds 30 credits and starts training on 12-20 of the user's selfies.
 * Refused with 409 TRAINING.ALREADY_TRAINING while another model trains, 402 without the credits.
 */
export function trainModel(request: TrainModelRequest): Promise<ListedModel> {
  // The answer is read as leniently as the list: a training that started is never reported as failed.
  return apiRequest('POST', '/api/train-model', { body: request, schema: listedModelSchema });
}

export function useTrainModel() {
  const queryClient = useQueryClient();
  const models = customModelsQueryOptions().queryKey;
  return useMutation({
    mutationFn: trainModel,
    onSuccess: (model) => {
      // The new model shows (and locks the form) at once; the refetch then confirms the list.
      queryClient.setQueryData(models, (current) => (current ? [model, ...current] : current));
      void queryClient.invalidateQueries({ queryKey: models });
      // Its selfies are now in use: they show "In training" and can't be deleted.
      void queryClient.invalidateQueries({ queryKey: uploadedImagesQueryOptions().queryKey });
    },
    onError: (error) => {
      // Another model is training that this screen did not know about: show it.
      if (isApiError(error) && error.status === 409) void queryClient.invalidateQueries({ queryKey: models });
    },
  });
}
