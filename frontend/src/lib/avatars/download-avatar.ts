import type { Avatar, ImageFormat } from '@likeness/contracts';
import { toast } from '@/components/ui/use-toast';
import { OUTPUT_FORMAT_LABELS } from '@/hooks/use-output-format';
import { apiBlob } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-file';
import { getFormattedImage } from './get-formatted-image';

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

/** Tells the user how their download went. */
export function announceDownload(outcome: DownloadOutcome): void {
  switch (outcome.kind) {
    case 'converted':
      toast({
        title: 'Download started',
        description: `Your avatar is downloading as ${OUTPUT_FORMAT_LABELS[outcome.format]}.`,
      });
      break;
    case 'original':
      toast({
        title: 'Download started',
        description: `Converting wasn't possible, so your avatar is downloading in its original format (${outcome.extension.toUpperCase()}).`,
      });
      break;
    case 'opened':
      toast({ title: 'Image opened in a new tab', description: 'Save it from there to keep a copy.' });
      break;
  }
}

export function announceDownloadFailed(): void {
  toast({
    variant: 'destructive',
    title: 'Download failed',
    description: 'There was an error downloading your avatar. Please try again.',
  });
}
