import type { ImageFormat } from '@likeness/contracts';

/**
 * GET /api/avatars/zip as a plain link, so the browser streams the ZIP to disk as media writes
 * it (nothing held in the page): the chosen avatars, or without ids the newest 500.
 */
export function downloadAvatarsZip(format: ImageFormat, ids?: readonly number[]): void {
  const query = new URLSearchParams({ format });
  if (ids) query.set('ids', ids.join(','));
  const link = document.createElement('a');
  link.href = `/api/avatars/zip?${query.toString()}`;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
  }
}
