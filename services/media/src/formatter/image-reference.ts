import { FILES_PATH_PREFIX, SHARED_AVATARS_PATH_PREFIX } from '../files/public-paths.js';

/** Which of our images a URL names: only its path counts, and nothing is ever fetched. */
export type ImageReference = { kind: 'file'; key: string } | { kind: 'shared'; token: string };

/**
 * Reads an image URL as the SPA lists it (`/api/files/<key>?...` or a share link, relative
 * or with any origin) and names the image it refers to. Anything else is refused: this is
 * how the formatter never becomes a way to fetch arbitrary URLs (DESIGN.md §5).
 */
export function parseImageReference(raw: string): ImageReference | undefined {
  let url: URL;
  try {
    url = new URL(raw, 'http://internal.invalid');
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const path = url.pathname;
  if (path.startsWith(FILES_PATH_PREFIX) && path.length > FILES_PATH_PREFIX.length) {
    return { kind: 'file', key: path.slice(FILES_PATH_PREFIX.length) };
  }
  if (path.startsWith(SHARED_AVATARS_PATH_PREFIX) && path.length > SHARED_AVATARS_PATH_PREFIX.length) {
    return { kind: 'shared', token: path.slice(SHARED_AVATARS_PATH_PREFIX.length) };
  }
  return undefined;
}
