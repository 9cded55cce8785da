import { serviceConfigSchema } from '@likeness/nest-kit';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

/** Like the kit's envBoolean, but unset stays undefined so another setting can decide. */
const optionalBoolean = z
  .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value === 'true' || value === '1'));

export const mediaConfigSchema = serviceConfigSchema
  .extend({
    /**
     * Shared with the gateway: authenticates its calls to /internal/* and keys the HMAC of
     * signed image URLs (the gateway forwards them, media checks them).
     */
    MEDIA_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    /** `auto`: S3 when S3_BUCKET is set, files under DATA_DIR otherwise. */
    STORAGE_DRIVER: z.enum(['auto', 'local', 's3']).default('auto'),
    /** Local objects live under `<DATA_DIR>/objects`. */
    DATA_DIR: z.string().min(1).default('.data'),
    /** An S3-compatible server (MinIO, R2...); unset for AWS. */
    S3_ENDPOINT: z.url({ error: 'must be a URL' }).optional(),
    S3_BUCKET: optional,
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Unset: the AWS SDK's default chain (AWS_ACCESS_KEY_ID, a profile, an instance role). */
    S3_ACCESS_KEY_ID: optional,
    S3_SECRET_ACCESS_KEY: optional,
    /** Bucket in the path rather than the host name; defaults to true with S3_ENDPOINT. */
    S3_FORCE_PATH_STYLE: optionalBoolean,
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
  .refine((config) => config.STORAGE_DRIVER !== 's3' || config.S3_BUCKET, {
    error: 'set S3_BUCKET with STORAGE_DRIVER=s3',
    path: ['S3_BUCKET'],
  })
  .refine((config) => !config.S3_ACCESS_KEY_ID === !config.S3_SECRET_ACCESS_KEY, {
    error: 'set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together, or neither',
    path: ['S3_ACCESS_KEY_ID'],
  });

export type MediaConfig = z.output<typeof mediaConfigSchema>;
