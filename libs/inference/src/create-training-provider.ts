import type { ProviderKind, TrainingProvider } from './inference-provider.js';
import { LocalTrainingProvider } from './local-training-provider.js';
import { ReplicateTrainingProvider } from './replicate-training-provider.js';

/** The inference settings of a service's config, as parsed from its environment. */
export interface TrainingProviderSettings {
  /** INFERENCE_PROVIDER, as the service's config decided it. */
  provider: ProviderKind;
  /** REPLICATE_API_TOKEN: required for Replicate. */
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
  if (settings.provider === 'local') {
    return new LocalTrainingProvider({
      ...(settings.localTrainingMs !== undefined ? { trainingMs: settings.localTrainingMs } : {}),
      ...(settings.now ? { now: settings.now } : {}),
    });
  }
  const missing = [
    ...(settings.replicateApiToken ? [] : ['REPLICATE_API_TOKEN']),
    ...(settings.replicateOwner ? [] : ['REPLICATE_OWNER']),
    ...(settings.replicateTrainerVersion ? [] : ['REPLICATE_TRAINER_VERSION']),
  ];
  if (missing.length > 0) {
    throw new Error(`Training on Replicate needs ${missing.join(' and ')}`);
  }
  return new ReplicateTrainingProvider({
    apiToken: settings.replicateApiToken ?? '',
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
