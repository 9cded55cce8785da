import type Replicate from 'replicate';
import type { Prediction as ReplicatePrediction } from 'replicate';
import { PredictionNotFoundError, ProviderUnavailableError } from './errors.js';
import {
  PREDICTION_TAG_PARAMETER,
  assertNumOutputs,
  type Prediction,
  type PredictionProvider,
  type StartPredictionInput,
  taggedWebhookUrl,
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
  /** How many pages of recent predictions to search for one already started with a tag. */
  reconcilePages?: number;
}

export const DEFAULT_PREDICTION_INPUT: Readonly<Record<string, unknown>> = { output_format: 'png' };

/** What Replicate gives for a prediction, with the webhook its typings leave out. */
type ReplicatePredictionJson = ReplicatePrediction & { webhook?: string };

/**
 * Predictions with a trained version on Replicate. A creation is never repeated blindly (a lost
 * answer may still have started a prediction, which costs money): a tagged one is looked for among
 * the recent predictions before it is created and after a creation whose answer was lost, and that
 * one is adopted.
 */
export class ReplicatePredictionProvider implements PredictionProvider {
  readonly kind = 'replicate' as const;
  private readonly client: Replicate;
  private readonly modelInput: Record<string, unknown>;
  private readonly reconcilePages: number;

  constructor(options: ReplicatePredictionProviderOptions) {
    this.client = createReplicateClient(options);
    this.modelInput = { ...DEFAULT_PREDICTION_INPUT, ...options.modelInput };
    this.reconcilePages = options.reconcilePages ?? 3;
  }

  async startPrediction(input: StartPredictionInput): Promise<Prediction> {
    assertNumOutputs(input.numOutputs);
    const version = versionHash(input.version);
    const webhook = input.webhookUrl ? taggedWebhookUrl(input.webhookUrl, input.tag) : undefined;
    const tag = webhook ? input.tag : undefined;
    const earlier = tag ? await this.findStarted(tag) : undefined;
    if (earlier) return earlier;
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
        ...(webhook ? { webhook, webhook_events_filter: ['completed'] as const } : {}),
      });
      return toPrediction(created);
    } catch (error) {
      const failure = toProviderError(error, `start a prediction with ${input.version}`);
      if (!tag || !(failure instanceof ProviderUnavailableError)) throw failure;
      // The answer was lost, not necessarily the prediction: look before anyone tries again.
      const started = await this.findStarted(tag).catch(() => undefined);
      if (started) return started;
      throw failure;
    }
  }

  /** A prediction tagged `tag` that has not failed or been cancelled, among the most recent ones (newest first). */
  private async findStarted(tag: string): Promise<Prediction | undefined> {
    try {
      let pages = 0;
      for await (const page of this.client.paginate(() => this.client.predictions.list())) {
        const found = (page as ReplicatePredictionJson[]).find(
          (prediction) =>
            taggedWith(prediction.webhook) === tag &&
            prediction.status !== 'failed' &&
            prediction.status !== 'canceled',
        );
        if (found) return toPrediction(found);
        if (++pages >= this.reconcilePages) break;
      }
      return undefined;
    } catch (error) {
      throw toProviderError(error, 'list recent predictions');
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

function taggedWith(webhook: string | undefined): string | undefined {
  if (!webhook) return undefined;
  try {
    return new URL(webhook).searchParams.get(PREDICTION_TAG_PARAMETER) ?? undefined;
  } catch {
    return undefined;
  }
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
