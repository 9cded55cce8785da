import type { ImageFormat } from '@likeness/contracts';
import pLimit from 'p-limit';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { type ImageType, sniffImageType } from './image-type.js';

// Every image is new to us: libvips' operation cache would only hold memory.
sharp.cache(false);
/**
 * A 25-megapixel image takes 75 MB decoded (rotation needs it whole), and libvips already
 * spreads one image over every core: decoding a few at a time keeps memory bounded however
 * many uploads arrive together, at little cost in throughput.
 */
const decoding = pLimit(2);

/** Why an image was refused; the caller words it for the person who sent it. */
export type ImageRejection = 'notAnImage' | 'tooManyPixels' | 'unreadable';

export class ImageRejectedError extends Error {
  constructor(readonly reason: ImageRejection) {
    super(`Image refused: ${reason}`);
    this.name = 'ImageRejectedError';
  }
}

export interface EncodedImage {
  image: Buffer;
  thumbnail: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Long-side caps of what we keep: selfies at 2048 px (trainers work at 512-1024 px, and a
 * 12-megapixel phone photo re-encodes about four times faster at this size), generated
 * avatars at 4096 px.
 */
export const MAX_SIDE = { selfie: 2048, avatar: 4096 } as const;
const THUMBNAIL_SIDE = 512;
const THUMBNAIL_QUALITY = 80;

/** Decoding refuses truncated and corrupt data ('error' implies 'truncated'). */
const decodeOptions = (maxPixels: number) =>
  ({
    failOn: 'error',
    limitInputPixels: maxPixels,
    // An animated GIF or WebP becomes its first frame.
    pages: 1,
  }) as const;

/** What an image's header says, once it passed the checks that need nothing decoded. */
export interface InspectedImage {
  type: ImageType;
  width: number;
  height: number;
}

/**
 * Checks an untrusted image before any pixel is decoded: a format we accept by its magic bytes
 * and by its decoder, and dimensions (read from the header alone) within `maxPixels`, so a
 * 20,000 × 20,000 PNG of a few bytes is refused without allocating its 1.2 GB.
 */
export async function inspectImage(bytes: Buffer, { maxPixels }: { maxPixels: number }): Promise<InspectedImage> {
  const type = sniffImageType(bytes);
  if (!type) throw new ImageRejectedError('notAnImage');
  let metadata: Metadata;
  try {
    // Only the header is read here; the pixel limit is applied below, against the frame size.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError('unreadable');
  }
  if (metadata.format !== type) throw new ImageRejectedError('unreadable');
  const width = metadata.width;
  const height = metadata.pageHeight ?? metadata.height;
  if (!width || !height) throw new ImageRejectedError('unreadable');
  if (width * height > maxPixels) throw new ImageRejectedError('tooManyPixels');
  return { type, width, height };
}

export interface EncodeOptions {
  output: 'jpeg' | 'webp';
  quality: number;
  maxSide: number;
  /** Decoded pixels (width × height) the image may have. */
  maxPixels: number;
}

/**
 * Decodes an untrusted image in full and encodes a new one: EXIF orientation applied, every
 * piece of metadata (EXIF, GPS, XMP, comments) and anything appended to the file left behind,
 * the long side capped. Also a WebP thumbnail of at most 512 px.
 */
export async function reencodeImage(bytes: Buffer, options: EncodeOptions): Promise<EncodedImage> {
  await inspectImage(bytes, options);
  return encodeImage(bytes, options);
}

/**
 * The decoding half of reencodeImage, for a caller that inspected the image itself (to weigh
 * its header's dimensions first). Decoding still refuses more than `maxPixels`.
 */
export function encodeImage(bytes: Buffer, options: EncodeOptions): Promise<EncodedImage> {
  return decoding(() => encode(bytes, options));
}

/**
 * libvips' WebP effort (0-6, default 4): 0 encodes a 1024 px image almost four times faster
 * (34 ms instead of 125 ms on the build machine) at the same quality setting, for larger files.
 * A new avatar is waited for; its bytes are not.
 */
const WEBP_EFFORT = 0;

const fitInside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;

async function encode(bytes: Buffer, { output, quality, maxSide, maxPixels }: EncodeOptions): Promise<EncodedImage> {
  try {
    const source = sharp(bytes, decodeOptions(maxPixels)).rotate();
    // JPEG has no alpha: transparent parts become white rather than black.
    const resized = source.clone().resize(fitInside(maxSide));
    const encoded =
      output === 'jpeg'
        ? resized.flatten({ background: '#ffffff' }).jpeg({ quality })
        : resized.webp({ quality, effort: WEBP_EFFORT });
    // The thumbnail is made from the original too: a JPEG then decodes already shrunk.
    const [{ data, info }, thumbnail] = await Promise.all([
      encoded.toBuffer({ resolveWithObject: true }),
      source
        .clone()
        .resize(fitInside(THUMBNAIL_SIDE))
        .webp({ quality: THUMBNAIL_QUALITY, effort: WEBP_EFFORT })
        .toBuffer(),
    ]);
    return { image: data, thumbnail, contentType: `image/${output}`, width: info.width, height: info.height };
  } catch {
    throw new ImageRejectedError('unreadable');
  }
}

const CONVERSIONS: Record<ImageFormat, (image: Sharp) => Sharp> = {
  png: (image) => image.png(),
  jpeg: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 90 }),
  webp: (image) => image.webp({ quality: 90 }),
};

/** Our stored images are re-encoded by us, at most 4096 px on a side. */
export const MAX_STORED_PIXELS = MAX_SIDE.avatar * MAX_SIDE.avatar;

/** One of our stored images in another format, for download. */
export function convertImage(bytes: Buffer, format: ImageFormat): Promise<Buffer> {
  return decoding(() => CONVERSIONS[format](sharp(bytes, decodeOptions(MAX_STORED_PIXELS)).rotate()).toBuffer());
}

export const contentTypeOf = (format: ImageFormat) => `image/${format}`;
