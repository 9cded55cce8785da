import { uploadSelfiesResponseSchema, type UploadSelfiesResponse } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadedImagesQueryOptions } from '@/lib/uploaded-images/get-uploaded-images';

/** POST /api/upload-selfies: 1-20 images as multipart, each in a field named "selfies"; all are stored or none. */
export function uploadSelfies(files: readonly File[]): Promise<UploadSelfiesResponse> {
  const form = new FormData();
  for (const file of files) form.append('selfies', file, file.name);
  return apiRequest('POST', '/api/upload-selfies', { body: form, schema: uploadSelfiesResponseSchema });
}

export function useUploadSelfies() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadSelfies,
    onSuccess: ({ uploadedFiles }) => {
      const { queryKey } = uploadedImagesQueryOptions();
      // The new selfies show at once (newest first, as listed); the refetch then confirms the list.
      queryClient.setQueryData(queryKey, (images) => (images ? [...uploadedFiles, ...images] : images));
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
