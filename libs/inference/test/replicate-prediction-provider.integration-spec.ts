import { type ReplicateStandIn, startReplicateStandIn } from '@likeness/testing';
import sharp from 'sharp';
import {
  PredictionNotFoundError,
  ProviderRejectedError,
  ProviderUnavailableError,
  ReplicatePredictionProvider,
  type ReplicatePredictionProviderOptions,
  ReplicateTrainingProvider,
} from '../src/index.js';

describe(`${ReplicatePredictionProvider.name} against the Replicate stand-in`, () => {
  let replicate: ReplicateStandIn;
  let sut: ReplicatePredictionProvider;
  /** `owner/name:hash` of a trained model, as `Training.version` gives it. */
  let version: string;
  const provider = (options: Partial<ReplicatePredictionProviderOptions> = {}) =>
    new ReplicatePredictionProvider({
      apiToken: replicate.apiToken,
      baseUrl: replicate.url,
      requestTimeoutMs: 2_000,
      ...options,
    });
  const predictionCreations = () =>
    replicate.requests().filter((request) => request.method === 'POST' && request.path === '/v1/predictions');

  beforeAll(async () => {
    replicate = await startReplicateStandIn();
    sut = provider();
    const trainer = new ReplicateTrainingProvider({
      apiToken: replicate.apiToken,
      baseUrl: replicate.url,
      owner: replicate.owner,
      trainer: replicate.trainer,
    });
    const training = await trainer.startTraining({
      modelId: 1,
      userId: 10,
      triggerWord: 'ohwx',
      imagesZipUrl: 'https://storage.example/trainings/1/images.zip',
      imageKeys: [],
    });
    const { training: trained } = await replicate.completeTraining(training.id, { status: 'succeeded' });
    version = trained.output?.version ?? '';
  });

  afterAll(async () => {
    await replicate?.close();
  });

  it('should run the trained version and give output URLs that serve PNGs once it succeeded', async () => {
    const started = await sut.startPrediction({
      version,
      prompt: 'ohwx, watercolor, close-up',
      numOutputs: 2,
      seed: 7,
      webhookUrl: 'https://likeness.example/api/webhooks/replicate',
    });
    expect(started).toEqual({ id: expect.any(String), status: 'starting' });
    const created = replicate.prediction(started.id);
    expect(created.version).toBe(version.split(':')[1]);
    expect(created.input).toEqual({
      prompt: 'ohwx, watercolor, close-up',
      num_outputs: 2,
      output_format: 'png',
      seed: 7,
    });
    expect(created.webhook).toBe('https://likeness.example/api/webhooks/replicate');
    expect(created.webhook_events_filter).toEqual(['completed']);
    expect((await sut.getPrediction(started.id)).status).toBe('starting');

    replicate.completePrediction(started.id, { status: 'succeeded' });
    const finished = await sut.getPrediction(started.id);
    expect(finished).toEqual({
      id: started.id,
      status: 'succeeded',
      outputs: [expect.any(String), expect.any(String)],
    });
    for (const url of finished.outputs ?? []) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({ format: 'png' });
    }
  });

  it('should report the provider error of a failed prediction', async () => {
    const started = await sut.startPrediction({ version, prompt: 'ohwx', numOutputs: 1 });
    replicate.completePrediction(started.id, { status: 'failed', error: 'NSFW content detected' });
    expect(await sut.getPrediction(started.id)).toEqual({
      id: started.id,
      status: 'failed',
      error: 'NSFW content detected',
    });
  });

  it('should cancel a prediction under way', async () => {
    const started = await sut.startPrediction({ version, prompt: 'ohwx', numOutputs: 1 });
    await sut.cancelPrediction(started.id);
    expect((await sut.getPrediction(started.id)).status).toBe('canceled');
    await expect(sut.cancelPrediction('nosuchprediction')).rejects.toBeInstanceOf(PredictionNotFoundError);
  });

  it('should throw PredictionNotFoundError for an unknown id', async () => {
    await expect(sut.getPrediction('nosuchprediction')).rejects.toBeInstanceOf(PredictionNotFoundError);
  });

  it('should refuse a version Replicate does not know', async () => {
    await expect(
      sut.startPrediction({
        version: `${replicate.owner}/likeness-model-1:${'0'.repeat(64)}`,
        prompt: 'ohwx',
        numOutputs: 1,
      }),
    ).rejects.toBeInstanceOf(ProviderRejectedError);
  });

  it('should throw ProviderUnavailableError when Replicate answers 5xx', async () => {
    replicate.failNext(1, 503);
    const failure = await sut
      .startPrediction({ version, prompt: 'ohwx', numOutputs: 1 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderUnavailableError);
    expect((failure as ProviderUnavailableError).status).toBe(503);
  });

  it('should not repeat a creation that got no answer in time', async () => {
    const before = predictionCreations().length;
    const predictions = replicate.predictions().length;
    replicate.holdNextPredictionCreate();

    await expect(
      provider({ requestTimeoutMs: 300 }).startPrediction({ version, prompt: 'ohwx', numOutputs: 1 }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(predictionCreations()).toHaveLength(before + 1);
    expect(replicate.predictions()).toHaveLength(predictions + 1);
  });
});
