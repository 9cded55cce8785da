import type { Avatar, ImageFormat } from '@likeness/contracts';
import { apiBlob } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-file';
import { getFormattedImage } from '../api/get-formatted-image';

/** How the avatar reached the user: converted, as stored, or in a new tab to save from there. */
export type DownloadOutcome =
  { kind: 'converted'; format: ImageFormat } | { kind: 'original'; extension: string } | { kind: 'opened' };

const extensionOfType: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** SPEC §7: a product prefix, then "avatar-{id}.{format}". */
export function avatarFilename(id: number, extension: string): string {
  return `likeness-avatar-${id}.${extension}`;
}

function extensionOf(blob: Blob, url: string): string {
  const fromType = extensionOfType[blob.type];
  if (fromType) return fromType;
  const fromPath = /\.([a-z0-9]{3,4})$/i.exec(new URL(url, window.location.origin).pathname)?.[1];
  return fromPath?.toLowerCase() ?? 'png';
}

/**
 * SPEC §7: the avatar converted to the chosen format; failing that, the stored image as it is;
 * failing that, the image in a new tab. Rejects only when even the tab could not be opened.
 */
export async function downloadAvatar(
  avatar: Pick<Avatar, 'id' | 'imageUrl'>,
  format: ImageFormat,
): Promise<DownloadOutcome> {
  try {
    const converted = await getFormattedImage({ imageUrl: avatar.imageUrl, format });
    saveBlob(converted, avatarFilename(avatar.id, format));
    return { kind: 'converted', format };
  } catch (conversionError) {
    console.warn('Image conversion failed, downloading the original', conversionError);
  }

  try {
    const original = await apiBlob(avatar.imageUrl);
    const extension = extensionOf(original, avatar.imageUrl);
    saveBlob(original, avatarFilename(avatar.id, extension));
    return { kind: 'original', extension };
  } catch (directError) {
    console.warn('Direct download failed, opening the image instead', directError);
  }

  const tab = window.open(avatar.imageUrl, '_blank');
  if (!tab) throw new Error('The image could not be downloaded or opened');
  tab.opener = null;
  return { kind: 'opened' };
}
