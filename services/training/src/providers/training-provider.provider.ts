import { type TrainingProvider, createTrainingProvider } from '@likeness/inference';
import { APP_CONFIG } from '@likeness/nest-kit';
import type { Provider } from '@nestjs/common';
import type { TrainingConfig } from '../training.config.js';

/** Injection token of the inference port's training half (Replicate or local). */
export const TRAINING_PROVIDER = Symbol('TRAINING_PROVIDER');

export function trainingProviderFromConfig(config: TrainingConfig): TrainingProvider {
  return createTrainingProvider({
    ...(config.REPLICATE_API_TOKEN ? { replicateApiToken: config.REPLICATE_API_TOKEN } : {}),
    ...(config.REPLICATE_API_URL ? { replicateBaseUrl: config.REPLICATE_API_URL } : {}),
    ...(config.REPLICATE_OWNER ? { replicateOwner: config.REPLICATE_OWNER } : {}),
    ...(config.REPLICATE_TRAINER_VERSION ? { replicateTrainerVersion: config.REPLICATE_TRAINER_VERSION } : {}),
    replicateHardware: config.REPLICATE_HARDWARE,
    localTrainingMs: config.LOCAL_TRAINING_MS,
  });
}

export const trainingProvider: Provider = {
  provide: TRAINING_PROVIDER,
  useFactory: trainingProviderFromConfig,
  inject: [APP_CONFIG],
};
