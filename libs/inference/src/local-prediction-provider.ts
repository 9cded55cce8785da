import { createHash, randomBytes } from 'node:crypto';
import type { ObjectStorage } from '@likeness/storage';
import { ObjectNotFoundError } from '@likeness/storage';
import { PredictionNotFoundError } from './errors.js';
import {
  assertNumOutputs,
  type Prediction,
  type PredictionProvider,
  type StartPredictionInput,
  taggedWebhookUrl,
} from './inference-provider.js';
import { signReplicateWebhook } from './replicate-webhook.js';
import {
  type Raw,
  type ShotType,
  frameSelfie,
  renderFramed,
  selfieIndex,
  treatmentFor,
} from './local-preview-image.js';

/** Words that make a local prediction fail, so the failure path can be seen and tested. */
export const LOCAL_FAILING_PROMPT_WORD = 'fail-generation';
export const LOCAL_GENERATION_FAILURE =
  'The prompt contains fail-generation, which makes local generations fail (for testing the failure path).';
export const DEFAULT_LOCAL_GENERATION_MS = 4_000;
export const LOCAL_PREDICTIONS_PREFIX = 'staging/local-predictions';

export interface LocalPredictionProviderOptions {
  storage: ObjectStorage;
  /** The storage keys of the selfies behind a model version (`local:<modelId>`). */
  imageKeysFor: (version: string) => Promise<string[]>;
  /** How long a prediction stays 'processing' (LOCAL_GENERATION_MS). */
  generationMs?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: () => number;
  /**
   * Signs the webhook a prediction with a `webhookUrl` gets once it has ended, as Replicate signs
   * them (`whsec_...`); without it no webhook is sent.
   */
  webhookSecret?: string;
}

/** `local-pred-<startedAtMs>-<random>`. */
const LOCAL_PREDICTION_ID = /^local-pred-(\d+)-([0-9a-f]{16})$/;

export const localPredictionId = (startedAtMs: number, nonce = randomBytes(8).toString('hex')) =>
  `local-pred-${startedAtMs}-${nonce}`;

export function parseLocalPredictionId(id: string): { startedAtMs: number } | undefined {
  const match = LOCAL_PREDICTION_ID.exec(id);
  return match ? { startedAtMs: Number(match[1]) } : undefined;
}

/** Where a local prediction keeps its request and its outputs (`<n>.jpg`, from 1). */
export const localPredictionKey = (id: string, file: string) => `${LOCAL_PREDICTIONS_PREFIX}/${id}/${file}`;

/** Where the id of the prediction started with a tag is kept (the tag hashed: any text is a safe key). */
const localTagKey = (tag: string) =>
  `${LOCAL_PREDICTIONS_PREFIX}/tags/${createHash('sha256').update(tag).digest('hex')}`;

interface StoredRequest {
  version: string;
  prompt: string;
  numOutputs: number;
  seed?: number;
  tag?: string;
}

/**
 * Previews without an account: real 1024×1024 PNGs made with sharp from the model's selfies,
 * styled, lit and framed by the words of the prompt and labelled PREVIEW.
 *
 * The request is written to storage when the prediction starts, so any instance (a restarted
 * process, another replica on the same storage) answers `getPrediction` for it. Rendering starts
 * in the background at once; once `generationMs` has passed, `getPrediction` waits for it, or
 * renders whatever outputs storage does not hold yet (deterministic, so rewriting is harmless).
 * Cancellation is remembered in memory only, as for local trainings.
 */
export class LocalPredictionProvider implements PredictionProvider {
  readonly kind = 'local' as const;
  readonly generationMs: number;
  private readonly storage: ObjectStorage;
  private readonly imageKeysFor: (version: string) => Promise<string[]>;
  private readonly now: () => number;
  private readonly rendering = new Map<string, Promise<string[]>>();
  /** Selfies already decoded and framed, newest last: a model's next image skips that work. */
  private readonly framed = new Map<string, Promise<Raw>>();
  private readonly canceled = new Set<string>();
  private readonly webhookSecret: string | undefined;

  constructor(options: LocalPredictionProviderOptions) {
    this.storage = options.storage;
    this.imageKeysFor = options.imageKeysFor;
    this.generationMs = options.generationMs ?? DEFAULT_LOCAL_GENERATION_MS;
    this.now = options.now ?? Date.now;
    this.webhookSecret = options.webhookSecret;
  }

  async startPrediction(input: StartPredictionInput): Promise<Prediction> {
    assertNumOutputs(input.numOutputs);
    const earlier = input.tag ? await this.tagged(input.tag) : undefined;
    if (earlier) return earlier;
    const id = localPredictionId(this.now());
    const request: StoredRequest = {
      version: input.version,
      prompt: input.prompt,
      numOutputs: input.numOutputs,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.tag !== undefined ? { tag: input.tag } : {}),
    };
    await this.storage.put(localPredictionKey(id, 'request.json'), Buffer.from(JSON.stringify(request)), {
      contentType: 'application/json',
    });
    if (input.tag !== undefined) {
      await this.storage.put(localTagKey(input.tag), Buffer.from(id), { contentType: 'text/plain' });
    }
    if (!failing(request)) {
      // Errors are reported by getPrediction, which renders again.
      this.render(id, request).catch(() => undefined);
    }
    if (input.webhookUrl && this.webhookSecret) this.notifyWhenEnded(id, taggedWebhookUrl(input.webhookUrl, input.tag));
    return { id, status: 'processing' };
  }

  /** The prediction started with this tag, unless it is gone or ended badly (then another may start). */
  private async tagged(tag: string): Promise<Prediction | undefined> {
    let id: string;
    try {
      id = (await readAll((await this.storage.get(localTagKey(tag))).body)).toString('utf8');
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return undefined;
      throw error;
    }
    try {
      const prediction = await this.getPrediction(id);
      return prediction.status === 'failed' || prediction.status === 'canceled' ? undefined : prediction;
    } catch (error) {
      if (error instanceof PredictionNotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * Posts the ended prediction to its webhook once its time has passed, signed as Replicate signs
   * (standard webhooks), in Replicate's shape. Lost with this process, as a webhook may be: the
   * caller's polling is the safety net.
   */
  private notifyWhenEnded(id: string, webhookUrl: string): void {
    const secret = this.webhookSecret ?? '';
    const deliver = async () => {
      const prediction = await this.getPrediction(id);
      const body = JSON.stringify({
        id,
        status: prediction.status,
        output: prediction.outputs ?? null,
        error: prediction.error ?? null,
      });
      const webhookId = `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = Math.floor(this.now() / 1000);
      await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signReplicateWebhook(secret, webhookId, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
    };
    setTimeout(() => void deliver().catch(() => undefined), this.generationMs).unref();
  }

  async getPrediction(id: string): Promise<Prediction> {
    const parsed = parseLocalPredictionId(id);
    if (!parsed) throw new PredictionNotFoundError(id);
    const request = await this.request(id);
    if (this.canceled.has(id)) return { id, status: 'canceled' };
    if (this.now() < parsed.startedAtMs + this.generationMs) return { id, status: 'processing' };
    if (failing(request)) return { id, status: 'failed', error: LOCAL_GENERATION_FAILURE };
    try {
      return { id, status: 'succeeded', outputs: await this.render(id, request) };
    } catch (error) {
      if (error instanceof NoSelfiesError) return { id, status: 'failed', error: error.message };
      throw error;
    }
  }

  async cancelPrediction(id: string): Promise<void> {
    const prediction = await this.getPrediction(id);
    if (prediction.status === 'processing') this.canceled.add(id);
  }

  async discardPrediction(id: string): Promise<void> {
    if (!parseLocalPredictionId(id)) return;
    const { tag } = await this.request(id).catch((): Partial<StoredRequest> => ({}));
    const keys: string[] = tag === undefined ? [] : [localTagKey(tag)];
    for await (const object of this.storage.list(`${LOCAL_PREDICTIONS_PREFIX}/${id}/`)) keys.push(object.key);
    await this.storage.deleteMany(keys);
    this.canceled.delete(id);
  }

  private async request(id: string): Promise<StoredRequest> {
    try {
      const stored = await this.storage.get(localPredictionKey(id, 'request.json'));
      return JSON.parse((await readAll(stored.body)).toString('utf8')) as StoredRequest;
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new PredictionNotFoundError(id);
      throw error;
    }
  }

  /** One rendering per prediction at a time in this process; a failed one may be tried again. */
  private render(id: string, request: StoredRequest): Promise<string[]> {
    let rendering = this.rendering.get(id);
    if (!rendering) {
      rendering = this.renderMissing(id, request);
      this.rendering.set(id, rendering);
      rendering.catch(() => this.rendering.delete(id));
    }
    return rendering;
  }

  private frame(selfieKey: string, shot: ShotType): Promise<Raw> {
    const cacheKey = `${shot}:${selfieKey}`;
    let framed = this.framed.get(cacheKey);
    if (framed) {
      this.framed.delete(cacheKey);
    } else {
      framed = this.storage.get(selfieKey).then(async (object) => frameSelfie(await readAll(object.body), shot));
      framed.catch(() => this.framed.delete(cacheKey));
    }
    this.framed.set(cacheKey, framed);
    if (this.framed.size > FRAMED_CACHE_SIZE) {
      const oldest = this.framed.keys().next().value;
      if (oldest !== undefined) this.framed.delete(oldest);
    }
    return framed;
  }

  /**
   * The model's selfies still in storage: their owner may delete them once the training has
   * ended, and a trained model (Replicate's too) goes on making images without them.
   */
  private async storedSelfies(version: string): Promise<string[]> {
    const keys = await this.imageKeysFor(version);
    const stored = await Promise.all(keys.map(async (key) => ((await this.storage.head(key)) ? key : undefined)));
    return stored.filter((key) => key !== undefined);
  }

  private async renderMissing(id: string, request: StoredRequest): Promise<string[]> {
    const keys = Array.from({ length: request.numOutputs }, (_, index) => localPredictionKey(id, `${index + 1}.jpg`));
    const missing = [];
    for (const [index, key] of keys.entries()) {
      if (!(await this.storage.head(key))) missing.push(index);
    }
    if (missing.length === 0) return keys;
    const selfies = await this.storedSelfies(request.version);
    if (selfies.length === 0) throw new NoSelfiesError(request.version);
    const treatment = treatmentFor(request.prompt);
    for (const index of missing) {
      const selfieKey = selfies[selfieIndex(request.prompt, index, selfies.length, request.seed)] ?? '';
      const image = await renderFramed(await this.frame(selfieKey, treatment.shot), treatment);
      await this.storage.put(keys[index] ?? '', image, { contentType: 'image/jpeg' });
    }
    return keys;
  }
}

/** A webhook's receiver gets this long to answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** A framed selfie is 3 MB of pixels, so only a few are kept. */
const FRAMED_CACHE_SIZE = 8;

class NoSelfiesError extends Error {
  constructor(version: string) {
    super(`The local generator found no selfies for ${version}`);
  }
}

const failing = (request: StoredRequest) => request.prompt.toLowerCase().includes(LOCAL_FAILING_PROMPT_WORD);

async function readAll(body: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
