import { type ObjectStorage, storageFromConfig } from '@likeness/storage';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_CONFIG, ReadinessCheck } from '@likeness/nest-kit';

/** Injection token of the storage port (S3 or local files). */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

export const objectStorageProvider: Provider = {
  provide: OBJECT_STORAGE,
  useFactory: storageFromConfig,
  inject: [APP_CONFIG],
};

/**
 * Says at start-up whether storage answers, keeps media unready while it does not (no upload or
 * image reaches a replica that cannot store or read it), and lets an S3 client close its connections.
 */
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

  /** In /health as `storage`: the bucket (or directory) answers, within the readiness timeout. */
  @ReadinessCheck('storage')
  async storageReachable(): Promise<void> {
    await this.storage.check();
  }

  onApplicationShutdown(): void {
    (this.storage as Partial<{ destroy(): void }>).destroy?.();
  }
}
