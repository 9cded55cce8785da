import type { ObjectStorage, PutOptions, StoredObject } from '@likeness/storage';
import { ObjectNotFoundError } from '@likeness/storage';
import { Readable } from 'node:stream';
import { PredictionNotFoundError } from './errors.js';
import {
  LOCAL_GENERATION_FAILURE,
  LocalPredictionProvider,
  localPredictionId,
  parseLocalPredictionId,
} from './local-prediction-provider.js';

/** Just enough of a storage for what does not render images (the integration spec renders). */
function memoryStorage(): ObjectStorage {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  return {
    kind: 'memory',
    async put(key: string, body: Buffer | Readable, options: PutOptions) {
      objects.set(key, { bytes: body as Buffer, contentType: options.contentType });
    },
    async get(key: string): Promise<StoredObject> {
      const object = objects.get(key);
      if (!object) throw new ObjectNotFoundError(key);
      return { key, size: object.bytes.length, contentType: object.contentType, body: Readable.from([object.bytes]) };
    },
    async head(key: string) {
      const object = objects.get(key);
      return object ? { key, size: object.bytes.length, contentType: object.contentType } : undefined;
    },
    async delete() {},
    async deleteMany() {},
    async *list() {},
    async presignGet() {
      return undefined;
    },
    async check() {},
  };
}

describe(LocalPredictionProvider.name, () => {
  let clock: number;
  const now = () => clock;
  let storage: ObjectStorage;
  let sut: LocalPredictionProvider;
  const imageKeysFor = async () => [];

  beforeEach(() => {
    clock = Date.UTC(2025, 0, 1);
    storage = memoryStorage();
    sut = new LocalPredictionProvider({ storage, imageKeysFor, generationMs: 1_000, now });
  });

  it('should round-trip the start time through its ids', () => {
    const id = localPredictionId(clock);
    expect(id).toMatch(/^local-pred-\d+-[0-9a-f]{16}$/);
    expect(parseLocalPredictionId(id)).toEqual({ startedAtMs: clock });
    expect(parseLocalPredictionId('r8_abc')).toBeUndefined();
  });

  it('should give the prediction started with a tag again, from any instance, instead of starting another', async () => {
    const request = { version: 'local:1', prompt: 'ohwx at the beach', numOutputs: 1, tag: 'job-1' };
    const first = await sut.startPrediction(request);
    // A restarted worker (another instance, the same storage) asks again for the same job.
    const restarted = new LocalPredictionProvider({ storage, imageKeysFor, generationMs: 1_000, now });
    expect(await restarted.startPrediction(request)).toEqual(first);
    expect((await sut.startPrediction({ ...request, tag: 'job-2' })).id).not.toBe(first.id);
  });

  it('should fail with an explanation when the prompt contains fail-generation, from any instance', async () => {
    const started = await sut.startPrediction({ version: 'local:1', prompt: 'ohwx, FAIL-GENERATION', numOutputs: 2 });
    expect(started).toEqual({ id: started.id, status: 'processing' });
    clock += 1_000;
    const restarted = new LocalPredictionProvider({ storage, imageKeysFor, generationMs: 1_000, now });
    expect(await restarted.getPrediction(started.id)).toEqual({
      id: started.id,
      status: 'failed',
      error: LOCAL_GENERATION_FAILURE,
    });
  });

  it('should fail a prediction of a model without selfies', async () => {
    const started = await sut.startPrediction({ version: 'local:1', prompt: 'ohwx', numOutputs: 1 });
    clock += 1_000;
    expect(await sut.getPrediction(started.id)).toEqual({
      id: started.id,
      status: 'failed',
      error: 'The local generator found no selfies for local:1',
    });
  });

  it('should report a cancelled prediction as canceled', async () => {
    const started = await sut.startPrediction({ version: 'local:1', prompt: 'fail-generation', numOutputs: 1 });
    await sut.cancelPrediction(started.id);
    clock += 1_000;
    expect((await sut.getPrediction(started.id)).status).toBe('canceled');
  });

  it('should throw PredictionNotFoundError for ids it never issued', async () => {
    await expect(sut.getPrediction('r8_abc')).rejects.toBeInstanceOf(PredictionNotFoundError);
    await expect(sut.getPrediction(localPredictionId(clock))).rejects.toBeInstanceOf(PredictionNotFoundError);
  });

  it('should refuse a number of outputs outside 1-4', async () => {
    await expect(sut.startPrediction({ version: 'local:1', prompt: 'ohwx', numOutputs: 5 })).rejects.toThrow(
      RangeError,
    );
  });

  it('should default to 4 seconds', () => {
    expect(new LocalPredictionProvider({ storage, imageKeysFor }).generationMs).toBe(4_000);
  });
});
