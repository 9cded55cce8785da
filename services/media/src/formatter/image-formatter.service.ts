import { type ImageFormat, imageFormatterQuerySchema } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable } from '@nestjs/common';
import { AvatarsService } from '../avatars/avatars.service.js';
import { MAX_STORED_PIXELS, contentTypeOf, convertImage, inspectImage } from '../images/image-processor.js';
import { PixelBudget } from '../limits/pixel-budget.js';
import { SelfiesService } from '../selfies/selfies.service.js';
import { IMAGE_NOT_FOUND, readObject } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { type ImageReference, parseImageReference } from './image-reference.js';

export const UNSUPPORTED_URL = 'Only your own Likeness images can be converted.';
export const CONVERTING_A_LOT = "You're converting a lot of images right now. Please wait a minute and try again.";
/** Stored images are re-encoded and at most 4096 px a side: far below this. */
const MAX_STORED_BYTES = 32 * 1024 * 1024;

export interface ConvertedImage {
  body: Buffer;
  contentType: string;
  filename: string;
}

/** GET /api/image-formatter: one of the caller's own images, converted for download. */
@Injectable()
export class ImageFormatterService {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly selfies: SelfiesService,
    private readonly avatars: AvatarsService,
    private readonly pixelBudget: PixelBudget,
  ) {}

  async convert(userId: number, query: unknown): Promise<ConvertedImage> {
    const parsed = imageFormatterQuerySchema.safeParse(query);
    if (!parsed.success) throw DomainError.validation(parsed.error);
    const { url, format } = parsed.data;
    const reference = parseImageReference(url);
    if (!reference)
      throw new DomainError('MEDIA.UNSUPPORTED_URL', UNSUPPORTED_URL, [{ path: 'url', message: UNSUPPORTED_URL }]);
    const image = await this.findOwned(userId, reference);
    if (!image) throw new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);
    const bytes = await readObject(this.storage, image.storageKey, {
      maxBytes: MAX_STORED_BYTES,
      tooLarge: () => new Error(`Stored image ${image.storageKey} is larger than any we store`),
    });
    // A conversion decodes the whole image: it is paid from the same budget as uploads, by its header.
    const { width, height } = await inspectImage(bytes, { maxPixels: MAX_STORED_PIXELS });
    await this.pixelBudget.spend(userId, width * height, CONVERTING_A_LOT);
    return {
      body: await convertImage(bytes, format),
      contentType: contentTypeOf(format),
      filename: downloadName(image.kind, image.id, format),
    };
  }

  /** The caller's selfie or avatar the reference names (its full image, even for a thumbnail URL). */
  private async findOwned(
    userId: number,
    reference: ImageReference,
  ): Promise<{ kind: 'avatar' | 'selfie'; id: number; storageKey: string } | undefined> {
    if (reference.kind === 'shared') {
      const avatar = await this.avatars.findOwnedByShareToken(userId, reference.token);
      return avatar ? { kind: 'avatar', id: avatar.id, storageKey: avatar.storageKey } : undefined;
    }
    const avatar = await this.avatars.findOwnedByKey(userId, reference.key);
    if (avatar) return { kind: 'avatar', id: avatar.id, storageKey: avatar.storageKey };
    const selfie = await this.selfies.findOwnedByKey(userId, reference.key);
    return selfie ? { kind: 'selfie', id: selfie.id, storageKey: selfie.storageKey } : undefined;
  }
}

/** SPEC.md §7: the product prefix, then `avatar-{id}.{format}`. */
export function downloadName(kind: 'avatar' | 'selfie', id: number, format: ImageFormat): string {
  return `likeness-${kind}-${id}.${format}`;
}
