import {
  generateAvatarResponseSchema,
  type GenerateAvatarRequest,
  type GenerateAvatarResponse,
} from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError } from '@/lib/api-client';
import { customModelsQueryOptions } from '@/lib/custom-models/get-custom-models';
import { generationJobsQueryOptions } from '@/lib/generation-jobs/get-generation-jobs';

/**
 * POST /api/generate-avatar: holds 5 credits and queues a run of 1-4 images with one of the
 * user's completed models. Refused with 402 without the credits, 404 for a model that is not
 * theirs and 409 while the model is not ready.
 */
export function generateAvatar(request: GenerateAvatarRequest): Promise<GenerateAvatarResponse> {
  return apiRequest('POST', '/api/generate-avatar', { body: request, schema: generateAvatarResponseSchema });
}

export function useGenerateAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateAvatar,
    onSuccess: () => {
      // The new job is pending in the list now.
      void queryClient.invalidateQueries({ queryKey: generationJobsQueryOptions().queryKey });
    },
    onError: (error) => {
      // The model list was out of date (the model went away or is not ready): fetch it again.
      if (isApiError(error) && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: customModelsQueryOptions().queryKey });
      }
    },
  });
}
