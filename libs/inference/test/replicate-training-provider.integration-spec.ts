import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, type ReplicateStandIn, startReplicateStandIn } from '@likeness/testing';
import {
  type StartTrainingInput,
  ProviderRejectedError,
  ProviderUnavailableError,
  ReplicateTrainingProvider,
  type ReplicateTrainingProviderOptions,
  TrainingNotFoundError,
  verifyReplicateWebhook,
} from '../src/index.js';

const input = (overrides: Partial<StartTrainingInput> = {}): StartTrainingInput => ({
  modelId: 1,
  userId: 10,
  triggerWord: 'ohwx',
  imagesZipUrl: 'https://storage.example/trainings/1/images.zip?X-Amz-Signature=first',
  imageKeys: [],
  webhookUrl: 'https://likeness.example/api/webhooks/replicate',
  ...overrides,
});

describe(`${ReplicateTrainingProvider.name} against the Replicate stand-in`, () => {
  let replicate: ReplicateStandIn;
  let sut: ReplicateTrainingProvider;
  let nextModelId = 100;
  const provider = (options: Partial<ReplicateTrainingProviderOptions> = {}) =>
    new ReplicateTrainingProvider({
      apiToken: replicate.apiToken,
      baseUrl: replicate.url,
      owner: replicate.owner,
      trainer: replicate.trainer,
      requestTimeoutMs: 2_000,
      ...options,
    });
  /** A model id no other test used, with its own images zip. */
  const fresh = (overrides: Partial<StartTrainingInput> = {}) => {
    const modelId = nextModelId++;
    return input({
      modelId,
      imagesZipUrl: `https://storage.example/trainings/${modelId}/images.zip?X-Amz-Signature=${modelId}`,
      ...overrides,
    });
  };

  beforeAll(async () => {
    replicate = await startReplicateStandIn();
    sut = provider();
  });

  afterAll(async () => {
    await replicate?.close();
  });

  it('should train into a private destination model and read the version back once it succeeded', async () => {
    const started = await sut.startTraining(input());

    expect(started).toEqual({
      id: expect.any(String),
      status: 'starting',
      destination: `${replicate.owner}/likeness-model-1`,
    });
    expect(replicate.models()).toContainEqual(
      expect.objectContaining({ name: 'likeness-model-1', visibility: 'private', hardware: 'gpu-t4' }),
    );
    const created = replicate.training(started.id);
    expect(created.destination).toBe(`${replicate.owner}/likeness-model-1`);
    expect(created.input).toEqual({
      input_images: input().imagesZipUrl,
      trigger_word: 'ohwx',
      steps: 1000,
      lora_rank: 16,
    });
    expect(new URL(created.webhook ?? '').searchParams.get('destination')).toBe(started.destination);
    expect(created.webhook_events_filter).toEqual(['start', 'completed']);

    await replicate.startProcessing(started.id, { deliverWebhook: false });
    expect((await sut.getTraining(started.id)).status).toBe('processing');

    const { training } = await replicate.completeTraining(started.id, { status: 'succeeded', deliverWebhook: false });
    const finished = await sut.getTraining(started.id);
    expect(finished).toEqual({
      id: started.id,
      status: 'succeeded',
      version: training.output?.version,
      destination: started.destination,
    });
    expect(finished.version).toMatch(new RegExp(`^${replicate.owner}/likeness-model-1:[0-9a-f]{64}$`));
  });

  it('should report the provider error of a failed training', async () => {
    const started = await sut.startTraining(fresh());
    await replicate.completeTraining(started.id, { status: 'failed', error: 'CUDA out of memory' });
    expect(await sut.getTraining(started.id)).toEqual({
      id: started.id,
      status: 'failed',
      error: 'CUDA out of memory',
      destination: started.destination,
    });
  });

  it('should return the training under way when started again for the same model', async () => {
    const request = fresh();
    const first = await sut.startTraining(request);
    const again = await provider().startTraining({ ...request, imagesZipUrl: `${request.imagesZipUrl}-renewed` });

    expect(again.id).toBe(first.id);
    expect(replicate.trainingsFor(first.destination ?? '')).toHaveLength(1);
  });

  it('should start a new training when the earlier one of the model failed', async () => {
    const request = fresh();
    const first = await sut.startTraining(request);
    await replicate.completeTraining(first.id, { status: 'failed', deliverWebhook: false });

    const second = await sut.startTraining(request);
    expect(second.id).not.toBe(first.id);
    expect(replicate.trainingsFor(first.destination ?? '')).toHaveLength(2);
  });

  it('should adopt the training a creation answered 502 for instead of creating another', async () => {
    const request = fresh();
    replicate.failNextCreateWith(502);

    const started = await sut.startTraining(request);
    const destination = `${replicate.owner}/likeness-model-${request.modelId}`;
    expect(replicate.trainingsFor(destination)).toEqual([expect.objectContaining({ id: started.id })]);
    expect(replicate.requests()).toContainEqual(expect.objectContaining({ method: 'POST', status: 502 }));

    // The caller retrying changes nothing either.
    expect((await sut.startTraining(request)).id).toBe(started.id);
    expect(replicate.trainingsFor(destination)).toHaveLength(1);
  });

  it('should find a lost creation by its images when no webhook was asked for', async () => {
    const request = fresh({ webhookUrl: undefined });
    replicate.failNextCreateWith(503);

    const started = await sut.startTraining(request);
    expect(replicate.trainingsFor(started.destination ?? '')).toEqual([expect.objectContaining({ id: started.id })]);
    expect(replicate.training(started.id).webhook).toBeUndefined();
  });

  it('should adopt the training of a creation that timed out, asking to create it once', async () => {
    const request = fresh();
    replicate.failNextCreateWith('no-answer');
    const impatient = provider({ requestTimeoutMs: 300 });
    const creations = () =>
      replicate.requests().filter((logged) => logged.method === 'POST' && logged.path.endsWith('/trainings'));
    const before = creations().length;

    const started = await impatient.startTraining(request);
    expect(replicate.trainingsFor(started.destination ?? '')).toEqual([expect.objectContaining({ id: started.id })]);
    // The SDK retries a request whose fetch threw; the adapter keeps it from repeating the creation.
    expect(creations().slice(before)).toEqual([expect.objectContaining({ status: 0 })]);
  });

  it('should look through several pages of recent trainings for a lost creation', async () => {
    const paged = await startReplicateStandIn({ pageSize: 2 });
    try {
      const pagedProvider = new ReplicateTrainingProvider({
        apiToken: paged.apiToken,
        baseUrl: paged.url,
        owner: paged.owner,
        trainer: paged.trainer,
      });
      const request = fresh();
      const first = await pagedProvider.startTraining(request);
      for (let index = 0; index < 3; index++) await pagedProvider.startTraining(fresh());

      expect((await pagedProvider.startTraining(request)).id).toBe(first.id);
      expect(paged.trainingsFor(first.destination ?? '')).toHaveLength(1);
    } finally {
      await paged.close();
    }
  });

  it('should cancel a training', async () => {
    const started = await sut.startTraining(fresh());
    await sut.cancelTraining(started.id);
    expect((await sut.getTraining(started.id)).status).toBe('canceled');
  });

  it('should delete the versions of a destination model, then the model', async () => {
    const request = fresh();
    const first = await sut.startTraining(request);
    await replicate.completeTraining(first.id, { status: 'failed', deliverWebhook: false });
    const second = await sut.startTraining(request);
    await replicate.completeTraining(second.id, { status: 'succeeded', deliverWebhook: false });
    const destination = second.destination ?? '';
    const [owner, name] = destination.split('/');
    const model = replicate.models().find((candidate) => candidate.name === name);
    expect(model?.versions).toHaveLength(1);
    const before = replicate.requests().length;

    await sut.deleteModel(destination);

    expect(replicate.models().find((candidate) => candidate.name === name)).toBeUndefined();
    const deletes = replicate
      .requests()
      .slice(before)
      .filter((logged) => logged.method === 'DELETE');
    expect(deletes).toEqual([
      { method: 'DELETE', path: `/v1/models/${owner}/${name}/versions/${model?.versions[0]}`, status: 202 },
      { method: 'DELETE', path: `/v1/models/${owner}/${name}`, status: 204 },
    ]);
    // Deleting again (a retried deletion) finds nothing to do.
    await expect(sut.deleteModel(destination)).resolves.toBeUndefined();
  });

  it('should carry on when the destination model already exists', async () => {
    const request = fresh();
    const first = await sut.startTraining(request);
    await replicate.completeTraining(first.id, { status: 'canceled', deliverWebhook: false });

    const second = await sut.startTraining(request);
    expect(second.id).not.toBe(first.id);
    expect(replicate.requests()).toContainEqual(expect.objectContaining({ path: '/v1/models', status: 409 }));
  });

  it('should throw TrainingNotFoundError for a training Replicate does not know', async () => {
    await expect(sut.getTraining('nosuchtraining')).rejects.toBeInstanceOf(TrainingNotFoundError);
  });

  it('should throw ProviderUnavailableError when Replicate answers 5xx', async () => {
    // The SDK retries a failed GET five times.
    replicate.failNext(6, 503);
    const error = await sut.getTraining('whatever').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).status).toBe(503);

    // A GET that fails once is retried by the SDK and goes through.
    replicate.failNext(1, 500);
    await expect(sut.getTraining('whatever')).rejects.toBeInstanceOf(TrainingNotFoundError);

    replicate.failNext(6, 500);
    await expect(sut.startTraining(fresh())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('should throw ProviderUnavailableError when nothing listens', async () => {
    const nowhere = provider({ baseUrl: `http://127.0.0.1:${await freePort()}/v1` });
    await expect(nowhere.getTraining('whatever')).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(nowhere.startTraining(fresh())).rejects.toThrow(/Replicate could not be reached/);
  });

  it('should say the token was refused when it is wrong', async () => {
    const wrong = provider({ apiToken: 'r8_wrong' });
    const error = await wrong.startTraining(fresh()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(401);
    expect((error as Error).message).toMatch(/refused the API token.*REPLICATE_API_TOKEN/);
  });

  it('should refuse to start without a zip of the images', async () => {
    await expect(sut.startTraining(fresh({ imagesZipUrl: undefined }))).rejects.toThrow(/imagesZipUrl/);
  });

  describe('webhooks', () => {
    let receiver: Server;
    let received: { headers: IncomingHttpHeaders; body: string; url: string }[];

    beforeAll(async () => {
      received = [];
      receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({
            headers: request.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            url: request.url ?? '',
          });
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    });

    it('should send webhooks that our check accepts, and redeliveries with the same id', async () => {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/replicate`;
      const started = await sut.startTraining(fresh({ webhookUrl }));
      await replicate.startProcessing(started.id);
      const { deliveries } = await replicate.completeTraining(started.id, { status: 'succeeded' });
      expect(deliveries).toEqual([expect.objectContaining({ status: 200 })]);
      await replicate.deliverWebhook(started.id, { times: 2, idOverride: 'msg_replayed' });

      expect(received).toHaveLength(4);
      const verdicts = received.map(({ headers, body }) =>
        verifyReplicateWebhook({ secret: replicate.webhookSecret, headers, body }),
      );
      expect(verdicts.every((verdict) => verdict.ok)).toBe(true);
      expect(verdicts.slice(2).map((verdict) => verdict.ok && verdict.id)).toEqual(['msg_replayed', 'msg_replayed']);
      expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({ id: started.id, status: 'processing' });
      expect(JSON.parse(received[1]?.body ?? '{}')).toMatchObject({
        id: started.id,
        status: 'succeeded',
        output: { version: expect.stringContaining(`${started.destination}:`) },
      });
      expect(new URL(received[1]?.url ?? '', 'http://x').searchParams.get('destination')).toBe(started.destination);
    });

    it('should send forged and stale webhooks that our check refuses', async () => {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/replicate`;
      const started = await sut.startTraining(fresh({ webhookUrl }));
      received = [];
      await replicate.deliverWebhook(started.id, { signatureOverride: 'v1,Zm9yZ2Vk' });
      await replicate.deliverWebhook(started.id, { timestampOverride: Math.floor(Date.now() / 1000) - 3600 });

      const verdicts = received.map(({ headers, body }) =>
        verifyReplicateWebhook({ secret: replicate.webhookSecret, headers, body }),
      );
      expect(verdicts).toEqual([
        { ok: false, reason: 'bad-signature' },
        { ok: false, reason: 'stale' },
      ]);
    });
  });
});
