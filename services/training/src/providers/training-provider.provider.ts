import { type TrainingProvider, createTrainingProvider } from '@likeness/inference';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Logger, type Provider } from '@nestjs/common';
import type { TrainingConfig } from '../training.config.js';

/** Injection token of the inference port's training half (Replicate or local). */
export const TRAINING_PROVIDER = Symbol('TRAINING_PROVIDER');

export function trainingProviderFromConfig(config: TrainingConfig): TrainingProvider {
  logProvider(
    config,
    config.INFERENCE_PROVIDER === 'local'
      ? 'Trainings run on the local provider (INFERENCE_PROVIDER=local): no model is really trained; ' +
          'set INFERENCE_PROVIDER=replicate and REPLICATE_API_TOKEN for real training'
      : 'Trainings run on Replicate',
  );
  return createTrainingProvider({
    provider: config.INFERENCE_PROVIDER,
    ...(config.REPLICATE_API_TOKEN ? { replicateApiToken: config.REPLICATE_API_TOKEN } : {}),
    ...(config.REPLICATE_API_URL ? { replicateBaseUrl: config.REPLICATE_API_URL } : {}),
    ...(config.REPLICATE_OWNER ? { replicateOwner: config.REPLICATE_OWNER } : {}),
    ...(config.REPLICATE_TRAINER_VERSION ? { replicateTrainerVersion: config.REPLICATE_TRAINER_VERSION } : {}),
    replicateHardware: config.REPLICATE_HARDWARE,
    localTrainingMs: config.LOCAL_TRAINING_MS,
  });
}

/** Which provider runs is said once at start; a local one in production louder. */
function logProvider(config: TrainingConfig, message: string): void {
  const logger = new Logger('Inference');
  if (config.INFERENCE_PROVIDER === 'local' && config.NODE_ENV === 'production') logger.warn(message);
  else logger.log(message);
}

export const trainingProvider: Provider = {
  provide: TRAINING_PROVIDER,
  useFactory: trainingProviderFromConfig,
  inject: [APP_CONFIG],
};
