import { z } from 'zod';
import { type ObjectStorage } from './object-storage.js';
import { createObjectStorage } from './create-object-storage.js';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

/** Like envBoolean, but unset stays undefined so another setting can decide. */
const optionalBoolean = z
  .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value === 'true' || value === '1'));

/** The object-storage settings of a service that keeps images (media, generation's workers), from its environment. */
export const storageConfigShape = {
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
};

export type StorageConfig = z.output<z.ZodObject<typeof storageConfigShape>>;

/** The checks that span several storage settings; add them to a config schema with `.superRefine`. */
export function checkStorageConfig(config: StorageConfig, context: z.RefinementCtx): void {
  if (config.STORAGE_DRIVER === 's3' && !config.S3_BUCKET) {
    context.addIssue({ code: 'custom', message: 'set S3_BUCKET with STORAGE_DRIVER=s3', path: ['S3_BUCKET'] });
  }
  if (!config.S3_ACCESS_KEY_ID !== !config.S3_SECRET_ACCESS_KEY) {
    context.addIssue({
      code: 'custom',
      message: 'set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together, or neither',
      path: ['S3_ACCESS_KEY_ID'],
    });
  }
}

export function storageFromConfig(config: StorageConfig): ObjectStorage {
  return createObjectStorage({
    driver: config.STORAGE_DRIVER,
    dataDir: config.DATA_DIR,
    s3: {
      ...(config.S3_BUCKET ? { bucket: config.S3_BUCKET } : {}),
      region: config.S3_REGION,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID } : {}),
      ...(config.S3_SECRET_ACCESS_KEY ? { secretAccessKey: config.S3_SECRET_ACCESS_KEY } : {}),
      forcePathStyle: config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT),
    },
  });
}
