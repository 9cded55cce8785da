import { serviceConfigSchema } from '@likeness/nest-kit';
import { checkStorageConfig, storageConfigShape } from '@likeness/storage';
import { z } from 'zod';

export const mediaConfigSchema = serviceConfigSchema
  .extend({
    /**
     * Shared with the gateway: authenticates its calls to /internal/* and keys the HMAC of
     * signed image URLs (the gateway forwards them, media checks them).
     */
    MEDIA_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    ...storageConfigShape,
    /** How long a listed image URL works (its expiry is rounded up so URLs stay cacheable). */
    SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(3600),
    /**
     * The public origin (https://likeness.example), used only to give outside providers an
     * absolute download URL when storage has no presigned URLs of its own (local files).
     */
    PUBLIC_URL: z
      .url({ error: 'must be an absolute URL' })
      .optional()
      .transform((value) => (value ? new URL(value).origin : undefined)),
  })
  .superRefine(checkStorageConfig);

export type MediaConfig = z.output<typeof mediaConfigSchema>;
