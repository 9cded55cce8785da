import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStorage, type ObjectStorage } from '@likeness/storage';
import sharp from 'sharp';
import {
  LOCAL_GENERATION_FAILURE,
  LocalPredictionProvider,
  type Prediction,
  PREVIEW_LABEL,
  PREVIEW_SIZE,
} from '../src/index.js';

const SELFIE_KEYS = ['users/3/selfies/a.jpg', 'users/3/selfies/b.jpg', 'users/3/selfies/c.jpg'];

/** A face-ish selfie: a skin-toned ellipse on a coloured background, different per index. */
async function selfie(index: number): Promise<Buffer> {
  const background = ['#3a6ea5', '#6a994e', '#bc4749'][index] ?? '#777';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="768" height="1024">
    <rect width="100%" height="100%" fill="${background}"/>
    <ellipse cx="384" cy="420" rx="190" ry="250" fill="#e0ac69"/>
    <circle cx="310" cy="380" r="22" fill="#222"/><circle cx="458" cy="380" r="22" fill="#222"/>
    <rect x="320" y="540" width="128" height="20" rx="10" fill="#8d2d2d"/>
    <rect x="184" y="760" width="400" height="264" fill="#f4f1de"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

async function bytesOf(storage: ObjectStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await storage.get(key)).body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe(`${LocalPredictionProvider.name} with real images`, () => {
  let root: string;
  let storage: LocalObjectStorage;
  let clock: number;
  const now = () => clock;
  const versions: string[] = [];
  const provider = () =>
    new LocalPredictionProvider({
      storage,
      generationMs: 1_000,
      now,
      imageKeysFor: async (version) => {
        versions.push(version);
        return SELFIE_KEYS;
      },
    });

  /** Starts a prediction, lets the latency pass, and reads it. */
  async function generate(prompt: string, sut = provider()): Promise<Prediction> {
    const started = await sut.startPrediction({ version: 'local:7', prompt, numOutputs: 2 });
    expect(started.status).toBe('processing');
    expect((await sut.getPrediction(started.id)).status).toBe('processing');
    clock += 1_000;
    return sut.getPrediction(started.id);
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'likeness-local-predictions-'));
    storage = new LocalObjectStorage(root);
    for (const [index, key] of SELFIE_KEYS.entries()) {
      await storage.put(key, await selfie(index), { contentType: 'image/jpeg' });
    }
  });

  beforeEach(() => {
    clock = Date.now();
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('should write 1024×1024 JPEGs under staging that differ with the prompt', async () => {
    const watercolor = await generate('ohwx, watercolor, golden hour, close-up, high quality');
    const sketch = await generate('ohwx, pencil sketch, full body, high quality');

    const stats = [];
    for (const prediction of [watercolor, sketch]) {
      expect(prediction.status).toBe('succeeded');
      expect(prediction.outputs).toEqual([
        `staging/local-predictions/${prediction.id}/1.jpg`,
        `staging/local-predictions/${prediction.id}/2.jpg`,
      ]);
      for (const key of prediction.outputs ?? []) {
        const image = await bytesOf(storage, key);
        expect(await sharp(image).metadata()).toMatchObject({
          format: 'jpeg',
          width: PREVIEW_SIZE,
          height: PREVIEW_SIZE,
        });
      }
      stats.push(await sharp(await bytesOf(storage, prediction.outputs?.[0] ?? '')).stats());
    }
    expect(versions).toContain('local:7');

    const [warm, grey] = stats;
    const channelMeans = (s: typeof warm) => s?.channels.slice(0, 3).map((channel) => channel.mean) ?? [];
    const [red = 0, , blue = 0] = channelMeans(warm);
    const [greyRed = 0, greyGreen = 0, greyBlue = 0] = channelMeans(grey);
    // Golden hour is warm; a pencil sketch has no colour.
    expect(red - blue).toBeGreaterThan(30);
    expect(Math.max(greyRed, greyGreen, greyBlue) - Math.min(greyRed, greyGreen, greyBlue)).toBeLessThan(3);
    expect(warm?.entropy).not.toBeCloseTo(grey?.entropy ?? 0, 1);
  });

  it('should carry the PREVIEW label in the bottom-right corner', async () => {
    const prediction = await generate('ohwx, studio lighting, portrait');
    const edge = PREVIEW_SIZE - PREVIEW_LABEL.margin;
    const corner = await sharp(await bytesOf(storage, prediction.outputs?.[0] ?? ''))
      .extract({
        left: edge - PREVIEW_LABEL.width,
        top: edge - PREVIEW_LABEL.height,
        width: PREVIEW_LABEL.width,
        height: PREVIEW_LABEL.height,
      })
      .greyscale()
      .png()
      .toBuffer();
    const [luminance] = (await sharp(corner).stats()).channels;
    // Mostly the dark box, with white letters in it.
    expect(luminance?.min).toBeLessThan(40);
    expect(luminance?.max).toBeGreaterThan(215);
    expect(luminance?.mean).toBeLessThan(110);
  });

  it('should answer from a new instance for a prediction another one started', async () => {
    const first = provider();
    const started = await first.startPrediction({ version: 'local:7', prompt: 'ohwx, anime, neon', numOutputs: 2 });
    clock += 1_000;
    const restarted = provider();
    const answered = await restarted.getPrediction(started.id);
    expect(answered).toEqual({ id: started.id, status: 'succeeded', outputs: expect.any(Array) });
    expect(await first.getPrediction(started.id)).toEqual(answered);
    expect(await provider().getPrediction(started.id)).toEqual(answered);
  });

  it('should draw on the selfies still stored when its owner deleted the others since the training', async () => {
    const deleted = ['users/3/selfies/gone-1.jpg', 'users/3/selfies/gone-2.jpg', 'users/3/selfies/gone-3.jpg'];
    const sut = new LocalPredictionProvider({
      storage,
      generationMs: 1_000,
      now,
      imageKeysFor: async () => [...deleted, SELFIE_KEYS[0]!],
    });

    const prediction = await generate('ohwx, portrait in a garden', sut);

    expect(prediction).toMatchObject({ status: 'succeeded', outputs: [expect.any(String), expect.any(String)] });
  });

  it('should fail with an explanation when every selfie of the model has been deleted', async () => {
    const sut = new LocalPredictionProvider({
      storage,
      generationMs: 1_000,
      now,
      imageKeysFor: async () => ['users/3/selfies/gone-1.jpg'],
    });

    expect(await generate('ohwx, portrait in a garden', sut)).toMatchObject({
      status: 'failed',
      error: 'The local generator found no selfies for local:7',
    });
  });

  it('should fail a prompt with fail-generation and write no outputs', async () => {
    const failed = await generate('ohwx, watercolor, fail-generation');
    expect(failed).toEqual({ id: failed.id, status: 'failed', error: LOCAL_GENERATION_FAILURE });
    expect(await storage.head(`staging/local-predictions/${failed.id}/1.jpg`)).toBeUndefined();
  });
});
