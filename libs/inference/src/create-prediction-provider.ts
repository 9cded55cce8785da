import type { ObjectStorage } from '@likeness/storage';
import type { ProviderKind, PredictionProvider } from './inference-provider.js';
import { LocalPredictionProvider } from './local-prediction-provider.js';
import { ReplicatePredictionProvider } from './replicate-prediction-provider.js';

/** The inference settings of the generation service's config, as parsed from its environment. */
export interface PredictionProviderSettings {
  /** INFERENCE_PROVIDER, as the service's config decided it. */
  provider: ProviderKind;
  /** REPLICATE_API_TOKEN: required for Replicate. */
  replicateApiToken?: string;
  /** REPLICATE_API_URL: a stand-in in tests. */
  replicateBaseUrl?: string;
  replicateRequestTimeoutMs?: number;
  /** LOCAL_GENERATION_MS. */
  localGenerationMs?: number;
  /** Where the local adapter reads selfies and writes its outputs. */
  storage: ObjectStorage;
  /** The selfies behind a local model version (`local:<modelId>`). */
  imageKeysFor: (version: string) => Promise<string[]>;
  /** The local adapter's clock (tests). */
  now?: () => number;
  /** REPLICATE_WEBHOOK_SECRET: the local adapter signs its webhooks with it, as Replicate does. */
  webhookSecret?: string;
}

export function createPredictionProvider(settings: PredictionProviderSettings): PredictionProvider {
  if (settings.provider === 'local') {
    return new LocalPredictionProvider({
      storage: settings.storage,
      imageKeysFor: settings.imageKeysFor,
      ...(settings.localGenerationMs !== undefined ? { generationMs: settings.localGenerationMs } : {}),
      ...(settings.now ? { now: settings.now } : {}),
      ...(settings.webhookSecret ? { webhookSecret: settings.webhookSecret } : {}),
    });
  }
  if (!settings.replicateApiToken) throw new Error('Predictions on Replicate need REPLICATE_API_TOKEN');
  return new ReplicatePredictionProvider({
    apiToken: settings.replicateApiToken,
    ...(settings.replicateBaseUrl ? { baseUrl: settings.replicateBaseUrl } : {}),
    ...(settings.replicateRequestTimeoutMs !== undefined
      ? { requestTimeoutMs: settings.replicateRequestTimeoutMs }
      : {}),
  });
}
