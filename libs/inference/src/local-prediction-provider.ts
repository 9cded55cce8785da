import { randomBytes } from 'node:crypto';
import type { ObjectStorage } from '@likeness/storage';
import { ObjectNotFoundError } from '@likeness/storage';
import { PredictionNotFoundError } from './errors.js';
import {
  assertNumOutputs,
  type Prediction,
  type PredictionProvider,
  type StartPredictionInput,
} from './inference-provider.js';
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

interface StoredRequest {
  version: string;
  prompt: string;
  numOutputs: number;
  seed?: number;
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

  constructor(options: LocalPredictionProviderOptions) {
    this.storage = options.storage;
    this.imageKeysFor = options.imageKeysFor;
    this.generationMs = options.generationMs ?? DEFAULT_LOCAL_GENERATION_MS;
    this.now = options.now ?? Date.now;
  }

  async startPrediction(input: StartPredictionInput): Promise<Prediction> {
    assertNumOutputs(input.numOutputs);
    const id = localPredictionId(this.now());
    const request: StoredRequest = {
      version: input.version,
      prompt: input.prompt,
      numOutputs: input.numOutputs,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
    };
    await this.storage.put(localPredictionKey(id, 'request.json'), Buffer.from(JSON.stringify(request)), {
      contentType: 'application/json',
    });
    if (!failing(request)) {
      // Errors are reported by getPrediction, which renders again.
      this.render(id, request).catch(() => undefined);
    }
    return { id, status: 'processing' };
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
    const keys: string[] = [];
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

  private async renderMissing(id: string, request: StoredRequest): Promise<string[]> {
    const keys = Array.from({ length: request.numOutputs }, (_, index) => localPredictionKey(id, `${index + 1}.jpg`));
    const missing = [];
    for (const [index, key] of keys.entries()) {
      if (!(await this.storage.head(key))) missing.push(index);
    }
    if (missing.length === 0) return keys;
    const selfies = await this.imageKeysFor(request.version);
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
