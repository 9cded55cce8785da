import type Replicate from 'replicate';
import type { Prediction as ReplicatePrediction } from 'replicate';
import { PredictionNotFoundError } from './errors.js';
import {
  assertNumOutputs,
  type Prediction,
  type PredictionProvider,
  type StartPredictionInput,
} from './inference-provider.js';
import {
  createReplicateClient,
  describe,
  isNotFound,
  isReplicateId,
  REPLICATE_STATUSES,
  type ReplicateClientOptions,
  toProviderError,
} from './replicate-client.js';

export interface ReplicatePredictionProviderOptions extends ReplicateClientOptions {
  /** Inputs for the trained model besides the prompt and the number of outputs. */
  modelInput?: Record<string, unknown>;
}

export const DEFAULT_PREDICTION_INPUT: Readonly<Record<string, unknown>> = { output_format: 'png' };

/**
 * Predictions with a trained version on Replicate. A creation is never repeated by this adapter
 * (a lost answer may still have started a prediction, which costs money): callers decide.
 */
export class ReplicatePredictionProvider implements PredictionProvider {
  readonly kind = 'replicate' as const;
  private readonly client: Replicate;
  private readonly modelInput: Record<string, unknown>;

  constructor(options: ReplicatePredictionProviderOptions) {
    this.client = createReplicateClient(options);
    this.modelInput = { ...DEFAULT_PREDICTION_INPUT, ...options.modelInput };
  }

  async startPrediction(input: StartPredictionInput): Promise<Prediction> {
    assertNumOutputs(input.numOutputs);
    const version = versionHash(input.version);
    try {
      const created = await this.client.predictions.create({
        version,
        input: {
          ...this.modelInput,
          prompt: input.prompt,
          num_outputs: input.numOutputs,
          ...(input.negativePrompt ? { negative_prompt: input.negativePrompt } : {}),
          ...(input.seed !== undefined ? { seed: input.seed } : {}),
        },
        ...(input.webhookUrl ? { webhook: input.webhookUrl, webhook_events_filter: ['completed'] as const } : {}),
      });
      return toPrediction(created);
    } catch (error) {
      throw toProviderError(error, `start a prediction with ${input.version}`);
    }
  }

  async getPrediction(id: string): Promise<Prediction> {
    if (!isReplicateId(id)) throw new PredictionNotFoundError(id);
    try {
      return toPrediction(await this.client.predictions.get(id));
    } catch (error) {
      if (isNotFound(error)) throw new PredictionNotFoundError(id);
      throw toProviderError(error, `read prediction ${id}`);
    }
  }

  async cancelPrediction(id: string): Promise<void> {
    if (!isReplicateId(id)) throw new PredictionNotFoundError(id);
    try {
      await this.client.predictions.cancel(id);
    } catch (error) {
      if (isNotFound(error)) throw new PredictionNotFoundError(id);
      throw toProviderError(error, `cancel prediction ${id}`);
    }
  }

  /** Replicate removes a prediction's outputs an hour after it ends; nothing to do here. */
  discardPrediction(): Promise<void> {
    return Promise.resolve();
  }
}

/** `owner/name:hash` → `hash` (what POST /v1/predictions takes); a bare hash stays as it is. */
export function versionHash(version: string): string {
  const match = /^(?:[^/\s:]+\/[^/\s:]+:)?(\w+)$/.exec(version);
  if (!match?.[1]) throw new Error(`A Replicate version is owner/name:version, not "${version}"`);
  return match[1];
}

function toPrediction(json: ReplicatePrediction): Prediction {
  const status = REPLICATE_STATUSES[json.status] ?? 'processing';
  const output: unknown = json.output;
  const outputs = (Array.isArray(output) ? output : output ? [output] : []).filter(
    (url): url is string => typeof url === 'string',
  );
  return {
    id: json.id,
    status,
    ...(status === 'succeeded' ? { outputs } : {}),
    ...(json.error !== undefined && json.error !== null ? { error: describe(json.error) } : {}),
  };
}
