import { join } from 'node:path';
import { LocalObjectStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3ObjectStorage, type S3ObjectStorageOptions } from './s3-storage.js';

export interface ObjectStorageSettings {
  /** `auto`: S3 when a bucket is set, files under `dataDir` otherwise. */
  driver: 'auto' | 'local' | 's3';
  dataDir: string;
  s3?: Partial<S3ObjectStorageOptions>;
}

const DEFAULT_REGION = 'us-east-1';

/** The storage adapter the settings ask for. */
export function createObjectStorage(settings: ObjectStorageSettings): ObjectStorage {
  const s3 = settings.s3 ?? {};
  const useS3 = settings.driver === 's3' || (settings.driver === 'auto' && Boolean(s3.bucket));
  if (!useS3) return new LocalObjectStorage(join(settings.dataDir, 'objects'));
  if (!s3.bucket) throw new Error('The s3 storage driver needs a bucket name');
  return new S3ObjectStorage({ ...s3, bucket: s3.bucket, region: s3.region ?? DEFAULT_REGION });
}
