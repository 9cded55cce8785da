import { uploadedImageSchema, type UploadedImage } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';

export const UPLOADED_IMAGES_PATH = '/api/uploaded-images';

/**
 * The listed image URLs are signed and expire (an hour by default): a list older than this is
 * fetched again when a screen showing it mounts, instead of never going stale.
 */
const SIGNED_URL_REFRESH_MS = 5 * 60 * 1000;

const uploadedImagesSchema = z.array(uploadedImageSchema);

/** GET /api/uploaded-images: the user's selfies, newest first. */
export function getUploadedImages({ signal }: { signal?: AbortSignal } = {}): Promise<UploadedImage[]> {
  return apiRequest('GET', UPLOADED_IMAGES_PATH, { schema: uploadedImagesSchema, signal });
}

export function uploadedImagesQueryOptions() {
  return queryOptions({
    queryKey: [UPLOADED_IMAGES_PATH],
    queryFn: getUploadedImages,
    staleTime: SIGNED_URL_REFRESH_MS,
  });
}

export function useUploadedImages() {
  return useQuery(uploadedImagesQueryOptions());
}
