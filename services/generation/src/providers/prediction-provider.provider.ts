import { type PredictionProvider, createPredictionProvider } from '@likeness/inference';
import { type ObjectStorage, storageFromConfig } from '@likeness/storage';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { GenerationConfig } from '../generation.config.js';

/** Injection tokens of the inference port's prediction half and of the storage port. */
export const PREDICTION_PROVIDER = Symbol('PREDICTION_PROVIDER');
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

const MAX_REMEMBERED_MODELS = 1_000;

/**
 * The selfies behind each model version a worker has run (the local generator draws on them).
 * A worker learns them from training before it runs a job; a completed model's never change.
 */
@Injectable()
export class ModelImages {
  private readonly byVersion = new Map<string, string[]>();

  remember(version: string, imageKeys: string[]): void {
    this.byVersion.delete(version);
    this.byVersion.set(version, imageKeys);
    if (this.byVersion.size > MAX_REMEMBERED_MODELS) {
      const oldest = this.byVersion.keys().next().value;
      if (oldest !== undefined) this.byVersion.delete(oldest);
    }
  }

  imageKeysFor(version: string): string[] {
    return this.byVersion.get(version) ?? [];
  }
}

export const objectStorageProvider: Provider = {
  provide: OBJECT_STORAGE,
  useFactory: storageFromConfig,
  inject: [APP_CONFIG],
};

export const predictionProvider: Provider = {
  provide: PREDICTION_PROVIDER,
  useFactory: (config: GenerationConfig, storage: ObjectStorage, images: ModelImages): PredictionProvider => {
    const logger = new Logger('Inference');
    if (config.INFERENCE_PROVIDER === 'replicate') logger.log('Images are generated on Replicate');
    else {
      const message = 'Images are local previews (INFERENCE_PROVIDER=local), labelled PREVIEW';
      // Said louder in production, where it was asked for by name.
      if (config.NODE_ENV === 'production') logger.warn(message);
      else logger.log(message);
    }
    return createPredictionProvider({
      provider: config.INFERENCE_PROVIDER,
      ...(config.REPLICATE_API_TOKEN ? { replicateApiToken: config.REPLICATE_API_TOKEN } : {}),
      ...(config.REPLICATE_API_URL ? { replicateBaseUrl: config.REPLICATE_API_URL } : {}),
      localGenerationMs: config.LOCAL_GENERATION_MS,
      ...(config.REPLICATE_WEBHOOK_SECRET ? { webhookSecret: config.REPLICATE_WEBHOOK_SECRET } : {}),
      storage,
      imageKeysFor: (version) => Promise.resolve(images.imageKeysFor(version)),
    });
  },
  inject: [APP_CONFIG, OBJECT_STORAGE, ModelImages],
};

/** Lets an S3 client close its connections on shutdown. */
@Injectable()
export class StorageShutdown implements OnApplicationShutdown {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  onApplicationShutdown(): void {
    (this.storage as Partial<{ destroy(): void }>).destroy?.();
  }
}
