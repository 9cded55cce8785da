import { z } from 'zod';
import { MAX_STORED_INTEGER } from '../ids.js';

/** SPEC.md §5 and §9: what a person may keep and send. */
export const SELFIE_LIMITS = {
  /** Selfies one person may keep in total. */
  maxStored: 30,
  /** Files in one upload. */
  maxPerUpload: 20,
  /** Bytes per file. */
  maxFileBytes: 5 * 1024 * 1024,
  /**
   * Decoded pixels per image (width × height, from its header), against decompression bombs.
   * 25 MP takes the 24 MP photos of today's phones and cameras (6000 × 4000, 5712 × 4284); a
   * larger photo rarely fits in 5 MB, and the trainer sees it at 512-1024 px anyway.
   */
  maxPixels: 25_000_000,
  /**
   * Decoded pixels of one upload, all files together. Decoding costs CPU in proportion to
   * pixels (a 36 MP all-black PNG of 4.6 KB costs media about 0.5 s), so a cheap request must
   * not buy unbounded work: 20 × 16 MP holds 20 of the usual 12 MP phone photos with room, and
   * 12 photos at the per-file cap (a training's minimum) still fit.
   */
  maxPixelsPerUpload: 320_000_000,
  /** The short side a trainer can use; smaller selfies are refused. */
  minShortSide: 512,
  /** The picker's Select All takes this many. */
  selectAll: 20,
} as const;

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const megapixels = (pixels: number) => `${pixels / 1_000_000} megapixels`;

/** SPEC.md §5 (Upload): the server's messages, which the SPA mirrors before sending. */
export const uploadMessages = {
  limitReached: 'You can only upload a maximum of 30 images total. Please delete some existing images first.',
  tooManyAtOnce: 'Please select up to 20 images at once for optimal upload performance.',
  remaining: (count: number) => `You can only upload ${count} more image(s) (30 total limit).`,
  noFiles: 'Please choose at least one image to upload.',
  tooLarge: (name: string) => `"${name}" is larger than 5 MB. Please choose a smaller image.`,
  notAnImage: (name: string) => `"${name}" is not a JPEG, PNG, GIF or WebP image.`,
  unreadable: (name: string) => `"${name}" could not be read as an image. It may be damaged.`,
  tooManyPixels: (name: string) => `"${name}" has too many pixels (at most ${megapixels(SELFIE_LIMITS.maxPixels)}).`,
  tooSmall: (name: string) =>
    `"${name}" is too small: selfies need at least ${SELFIE_LIMITS.minShortSide} pixels on the short side so the trainer can use them.`,
  tooManyPixelsInAll: (name: string) =>
    `"${name}" and the images before it have more than ${megapixels(SELFIE_LIMITS.maxPixelsPerUpload)} together. ` +
    'Please upload the rest separately.',
} as const;

export const imageFormatSchema = z.enum(['png', 'jpeg', 'webp'], {
  error: 'The format must be png, jpeg or webp.',
});
export type ImageFormat = z.infer<typeof imageFormatSchema>;

const isoDate = z.string();

/** GET /api/uploaded-images item. URLs are short-lived signed links for the owner. */
export const uploadedImageSchema = z.object({
  id: z.number().int().positive(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  originalFilename: z.string(),
  /** True while a model in training uses the selfie (it cannot be deleted then). */
  inUse: z.boolean(),
  createdAt: isoDate,
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

/** POST /api/upload-selfies */
export const uploadSelfiesResponseSchema = z.object({ uploadedFiles: z.array(uploadedImageSchema) });
export type UploadSelfiesResponse = z.infer<typeof uploadSelfiesResponseSchema>;

/** GET /api/avatars item. */
export const avatarSchema = z.object({
  id: z.number().int().positive(),
  promptText: z.string(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  /** Anyone with this link sees the image until the avatar is deleted. */
  shareUrl: z.string(),
  customModelId: z.number().int().positive().nullable(),
  createdAt: isoDate.nullable(),
  /** Starred by its owner; the gallery's Favourites filter shows these. */
  favourite: z.boolean(),
});
export type Avatar = z.infer<typeof avatarSchema>;

/** The gallery's pages: newest first, at most `maxPageSize` a page. */
export const AVATAR_PAGE_LIMITS = {
  defaultPageSize: 24,
  maxPageSize: 100,
  /** Avatars one bulk delete may name. */
  maxBulkDelete: 200,
  /** Avatars one ZIP download may hold ("Download all" takes this many of the newest). */
  maxZip: 500,
} as const;

const INVALID_PAGE_LINK = 'That page link is not valid any more. Start again from the first page.';
const pageSizeMessage = `limit must be a whole number from 1 to ${AVATAR_PAGE_LIMITS.maxPageSize}`;

/** GET /api/avatars query: `limit` avatars after `cursor` (the `nextCursor` of the page before). */
export const avatarsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: pageSizeMessage })
    .int({ error: pageSizeMessage })
    .min(1, { error: pageSizeMessage })
    .max(AVATAR_PAGE_LIMITS.maxPageSize, { error: pageSizeMessage })
    .default(AVATAR_PAGE_LIMITS.defaultPageSize),
  cursor: z
    .string({ error: INVALID_PAGE_LINK })
    .max(200, { error: INVALID_PAGE_LINK })
    .regex(/^[A-Za-z0-9_-]+$/, { error: INVALID_PAGE_LINK })
    .optional(),
  /** `true`: only the starred avatars. */
  favourites: z
    .enum(['true', 'false'], { error: 'favourites must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
export type AvatarsQuery = z.input<typeof avatarsQuerySchema>;
export const INVALID_AVATARS_CURSOR = INVALID_PAGE_LINK;

/** One page of the caller's avatars; `total` counts every avatar the filter matches. */
export const avatarsPageSchema = z.object({
  items: z.array(avatarSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
});
export type AvatarsPage = z.infer<typeof avatarsPageSchema>;

/** PUT /api/avatars/{id}/favourite body and answer. */
export const favouriteBodySchema = z.object({
  favourite: z.boolean({ error: 'favourite must be true or false' }),
});

const avatarIdsMessage = (max: number) => `Choose from 1 to ${max} avatars.`;
const avatarIdSchema = z
  .number({ error: 'Each id must be a positive whole number.' })
  .int({ error: 'Each id must be a positive whole number.' })
  .positive({ error: 'Each id must be a positive whole number.' })
  .max(MAX_STORED_INTEGER, { error: 'Each id must be a positive whole number.' });

/** POST /api/avatars/bulk-delete body: ids that are not the caller's are left alone. */
export const bulkDeleteAvatarsBodySchema = z.object({
  ids: z
    .array(avatarIdSchema, { error: avatarIdsMessage(AVATAR_PAGE_LIMITS.maxBulkDelete) })
    .min(1, { error: avatarIdsMessage(AVATAR_PAGE_LIMITS.maxBulkDelete) })
    .max(AVATAR_PAGE_LIMITS.maxBulkDelete, { error: avatarIdsMessage(AVATAR_PAGE_LIMITS.maxBulkDelete) }),
});
/** How many of the named avatars were the caller's and are gone. */
export const bulkDeleteAvatarsResponseSchema = z.object({ deleted: z.number().int().nonnegative() });

/**
 * GET /api/avatars/zip query: the chosen format, and the avatars by id (comma-separated);
 * without ids, the newest `maxZip` of them.
 */
export const avatarsZipQuerySchema = z.object({
  format: imageFormatSchema,
  ids: z
    .string({ error: 'ids must be avatar ids separated by commas' })
    .max(AVATAR_PAGE_LIMITS.maxZip * 11, { error: avatarIdsMessage(AVATAR_PAGE_LIMITS.maxZip) })
    .regex(/^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9})*$/, { error: 'ids must be avatar ids separated by commas' })
    .refine((ids) => ids === undefined || ids.split(',').length <= AVATAR_PAGE_LIMITS.maxZip, {
      error: avatarIdsMessage(AVATAR_PAGE_LIMITS.maxZip),
    })
    .optional(),
});
export type AvatarsZipQuery = z.infer<typeof avatarsZipQuerySchema>;

/** The ids of a ZIP query, each once, in the order given. */
export function zipIdsOf(query: AvatarsZipQuery): number[] | undefined {
  return query.ids === undefined ? undefined : [...new Set(query.ids.split(',').map(Number))];
}

export const idParamSchema = z.coerce
  .number({ error: 'The id must be a positive whole number.' })
  .int({ error: 'The id must be a positive whole number.' })
  .positive({ error: 'The id must be a positive whole number.' })
  .max(MAX_STORED_INTEGER, { error: 'The id must be a positive whole number.' });

/** GET /api/image-formatter query. */
export const imageFormatterQuerySchema = z.object({
  url: z
    .string({ error: 'The url of one of your images is required.' })
    .min(1, { error: 'The url of one of your images is required.' })
    .max(2048, { error: 'That url is too long.' }),
  format: imageFormatSchema,
});
export type ImageFormatterQuery = z.infer<typeof imageFormatterQuerySchema>;

export const deletedResponseSchema = z.object({ deleted: z.literal(true) });

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ROW_ID = '[1-9][0-9]{0,9}';

/**
 * The storage keys media signs URLs for, and nothing else: a selfie's or an avatar's image and
 * thumbnail (`users/<id>/selfies/<uuid>.jpg`, `users/<id>/avatars/<uuid>.thumb.webp`) and the
 * zip of a training's selfies (`users/<id>/training/<modelId>.zip`).
 */
export const MEDIA_FILE_KEY_PATTERN = new RegExp(
  `^users/${ROW_ID}/(?:(?:selfies|avatars)/${UUID}(?:\\.thumb)?\\.(?:jpg|jpeg|png|webp|gif)|training/${ROW_ID}\\.zip)$`,
);
/** An avatar's share token: 32 random bytes, base64url. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A signed URL's expiry (unix seconds) and its HMAC-SHA256 signature (base64url). */
export const SIGNED_URL_EXPIRES_PATTERN = /^[0-9]{1,12}$/;
export const SIGNED_URL_SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const IMAGE_NOT_FOUND_MESSAGE = 'That image was not found.';

export const mediaFileKeySchema = z.string().regex(MEDIA_FILE_KEY_PATTERN, { error: IMAGE_NOT_FOUND_MESSAGE });
export const shareTokenSchema = z.string().regex(SHARE_TOKEN_PATTERN, { error: IMAGE_NOT_FOUND_MESSAGE });
export const signedUrlQuerySchema = z.object({
  expires: z.string().regex(SIGNED_URL_EXPIRES_PATTERN, { error: IMAGE_NOT_FOUND_MESSAGE }),
  signature: z.string().regex(SIGNED_URL_SIGNATURE_PATTERN, { error: IMAGE_NOT_FOUND_MESSAGE }),
});
export type SignedUrlQuery = z.infer<typeof signedUrlQuerySchema>;
