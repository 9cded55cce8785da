import { type ObjectStorage, createObjectStorage } from '@likeness/storage';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_CONFIG } from '@likeness/nest-kit';
import type { MediaConfig } from '../media.config.js';

/** Injection token of the storage port (S3 or local files). */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

export function storageFromConfig(config: MediaConfig): ObjectStorage {
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

export const objectStorageProvider: Provider = {
  provide: OBJECT_STORAGE,
  useFactory: storageFromConfig,
  inject: [APP_CONFIG],
};

/** Says at start-up whether storage answers, and lets an S3 client close its connections. */
@Injectable()
export class StorageLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Storage');

  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  async onApplicationBootstrap(): Promise<void> {
    // A storage that is still starting (MinIO beside us) must not stop the service: log it.
    try {
      await this.storage.check();
      this.logger.log(`Images are stored in ${this.storage.kind} storage`);
    } catch (error) {
      this.logger.error(`${this.storage.kind} storage does not answer: ${(error as Error).message}`);
    }
  }

  onApplicationShutdown(): void {
    (this.storage as Partial<{ destroy(): void }>).destroy?.();
  }
}
