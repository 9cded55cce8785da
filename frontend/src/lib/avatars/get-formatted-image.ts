import type { ImageFormat } from '@likeness/contracts';
import { apiBlob } from '@/lib/api-client';

export const IMAGE_FORMATTER_PATH = '/api/image-formatter';

export function imageFormatterUrl(imageUrl: string, format: ImageFormat): string {
  return `${IMAGE_FORMATTER_PATH}?url=${encodeURIComponent(imageUrl)}&format=${format}`;
}

/** GET /api/image-formatter: one of the user's own images, converted to the given format. */
export function getFormattedImage({ imageUrl, format }: { imageUrl: string; format: ImageFormat }): Promise<Blob> {
  return apiBlob(imageFormatterUrl(imageUrl, format));
}
