import type { TrainingProvider } from './inference-provider.js';
import { LocalTrainingProvider } from './local-training-provider.js';
import { ReplicateTrainingProvider } from './replicate-training-provider.js';

/** The inference settings of a service's config, as parsed from its environment. */
export interface TrainingProviderSettings {
  /** REPLICATE_API_TOKEN: Replicate when set, the local adapter otherwise. */
  replicateApiToken?: string;
  /** REPLICATE_API_URL: a stand-in in tests. */
  replicateBaseUrl?: string;
  /** REPLICATE_OWNER. */
  replicateOwner?: string;
  /** REPLICATE_TRAINER_VERSION: `owner/name:version`. */
  replicateTrainerVersion?: string;
  /** REPLICATE_HARDWARE. */
  replicateHardware?: string;
  replicateModelNamePrefix?: string;
  replicateRequestTimeoutMs?: number;
  /** LOCAL_TRAINING_MS. */
  localTrainingMs?: number;
  /** The local adapter's clock (tests). */
  now?: () => number;
}

export function createTrainingProvider(settings: TrainingProviderSettings): TrainingProvider {
  if (!settings.replicateApiToken) {
    return new LocalTrainingProvider({
      ...(settings.localTrainingMs !== undefined ? { trainingMs: settings.localTrainingMs } : {}),
      ...(settings.now ? { now: settings.now } : {}),
    });
  }
  const missing = [
    ...(settings.replicateOwner ? [] : ['REPLICATE_OWNER']),
    ...(settings.replicateTrainerVersion ? [] : ['REPLICATE_TRAINER_VERSION']),
  ];
  if (missing.length > 0) {
    throw new Error(`REPLICATE_API_TOKEN is set, so Replicate needs ${missing.join(' and ')} too`);
  }
  return new ReplicateTrainingProvider({
    apiToken: settings.replicateApiToken,
    owner: settings.replicateOwner ?? '',
    trainer: settings.replicateTrainerVersion ?? '',
    ...(settings.replicateBaseUrl ? { baseUrl: settings.replicateBaseUrl } : {}),
    ...(settings.replicateHardware ? { hardware: settings.replicateHardware } : {}),
    ...(settings.replicateModelNamePrefix ? { modelNamePrefix: settings.replicateModelNamePrefix } : {}),
    ...(settings.replicateRequestTimeoutMs !== undefined
      ? { requestTimeoutMs: settings.replicateRequestTimeoutMs }
      : {}),
  });
}
