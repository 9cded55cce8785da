import { z } from 'zod';

/** SPEC.md §5 and §9: what a person may keep and send. */
export const SELFIE_LIMITS = {
  /** Selfies one person may keep in total. */
  maxStored: 30,
  /** Files in one upload. */
  maxPerUpload: 20,
  /** Bytes per file. */
  maxFileBytes: 5 * 1024 * 1024,
  /** Decoded pixels per image (width × height), against decompression bombs. */
  maxPixels: 40_000_000,
  /** The picker's Select All takes this many. */
  selectAll: 20,
} as const;

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** SPEC.md §5 (Upload): the server's messages, which the SPA mirrors before sending. */
export const uploadMessages = {
  limitReached: 'You can only upload a maximum of 30 images total. Please delete some existing images first.',
  tooManyAtOnce: 'Please select up to 20 images at once for optimal upload performance.',
  remaining: (count: number) => `You can only upload ${count} more image(s) (30 total limit).`,
  noFiles: 'Please choose at least one image to upload.',
  tooLarge: (name: string) => `"${name}" is larger than 5 MB. Please choose a smaller image.`,
  notAnImage: (name: string) => `"${name}" is not a JPEG, PNG, GIF or WebP image.`,
  unreadable: (name: string) => `"${name}" could not be read as an image. It may be damaged.`,
  tooManyPixels: (name: string) => `"${name}" has too many pixels (at most 40 megapixels).`,
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
});
export type Avatar = z.infer<typeof avatarSchema>;

export const idParamSchema = z.coerce
  .number({ error: 'The id must be a positive whole number.' })
  .int({ error: 'The id must be a positive whole number.' })
  .positive({ error: 'The id must be a positive whole number.' })
  .max(2_147_483_647, { error: 'The id must be a positive whole number.' });

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
