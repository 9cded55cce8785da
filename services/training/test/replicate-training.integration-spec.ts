import { TRAINING_COST, TrainingRpc } from '@likeness/contracts';
import { type ReplicateStandIn, startReplicateStandIn, waitFor } from '@likeness/testing';
import { type SagaUnderTest, refusal, startSaga, startWebhookRelay } from './training-harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Trainings on Replicate, against a local stand-in of its API with webhooks signed as Replicate
 * signs them, delivered through a relay that plays the gateway's part. The reconciler is slowed
 * down to 10 minutes unless a test is about it, so what a webhook does is the webhook's doing.
 */
describe('trainings on Replicate', () => {
  let saga: SagaUnderTest;
  let standIn: ReplicateStandIn;
  let relay: Awaited<ReturnType<typeof startWebhookRelay>>;
  let nextUser = 500;
  const newUser = () => (nextUser += 1);
  /** A webhook id training has acted on, for replaying. */
  let handledWebhookId: string | undefined;

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    relay = await startWebhookRelay(() => saga.rpc);
    saga = await startSaga(
      'replicate',
      { ...standIn.env, PUBLIC_URL: relay.url, RECONCILE_INTERVAL_MS: '600000' },
      // Local storage has no presigned URLs: media signs its own on the public origin.
      { PUBLIC_URL: 'https://likeness.example' },
    );
  });

  afterAll(async () => {
    await saga?.close();
    await relay?.close();
    await standIn?.close();
  });

  async function trainingOf() {
    const userId = newUser();
    const credits = await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, 12);
    const model = await saga.train(userId, selfies, { triggerWord: `person${userId}` });
    expect(model.status).toBe('training');
    const row = await saga.model(model.id);
    return { userId, credits, model, row, jobId: row.training_job_id! };
  }

  it('should start a Replicate training from a zip of the selfies into a private model of its own', async () => {
    const { userId, model, row, jobId } = await trainingOf();
    const training = standIn.training(jobId);
    expect(row.provider_model).toBe(`${standIn.owner}/likeness-model-${model.id}`);
    expect(training.destination).toBe(row.provider_model);
    expect(training.input).toMatchObject({
      trigger_word: `person${userId}`,
      input_images: expect.stringMatching(
        new RegExp(
          `^https://likeness\\.example/api/files/users/${userId}/training/${model.id}\\.zip\\?expires=\\d+&signature=`,
        ),
      ),
    });
    expect(new URL(training.webhook!).origin + new URL(training.webhook!).pathname).toBe(
      `${relay.url}/api/webhooks/replicate`,
    );
    expect(new URL(training.webhook!).searchParams.get('model')).toBe(String(model.id));
    expect(standIn.models()).toContainEqual(
      expect.objectContaining({ name: `likeness-model-${model.id}`, visibility: 'private' }),
    );
    await expect(saga.rpc.call(TrainingRpc.getInferenceConfig, {})).resolves.toEqual({ provider: 'replicate' });

    await standIn.completeTraining(jobId, { status: 'canceled', deliverWebhook: true });
    await saga.waitForStatus(model.id, 'failed');
  });

  it('should complete a model once when its webhook comes five times, and charge once', async () => {
    const { userId, credits, model, row, jobId } = await trainingOf();
    // The 'start' webhook is progress, not an outcome.
    await standIn.startProcessing(jobId);
    expect((await saga.model(model.id)).status).toBe('training');

    const { training } = await standIn.completeTraining(jobId, { status: 'succeeded', deliverWebhook: false });
    const deliveries = await standIn.deliverWebhook(jobId, { times: 5 });
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200, 200]);
    handledWebhookId = deliveries[0]!.webhookId;

    const completed = await saga.model(model.id);
    expect(completed).toMatchObject({ status: 'completed', version: training.output!.version });
    expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(1);
    await waitFor(async () => (await saga.holdOf(row.hold_reference))?.status === 'captured', {
      what: 'billing to capture the hold',
    });
    await waitFor(async () => (await saga.locksOf(model.id)) === 0, { what: 'media to release the selfies' });
    // A fresh delivery of the same news changes nothing either.
    await expect(standIn.deliverWebhook(jobId)).resolves.toMatchObject([{ status: 200 }]);
    await sleep(200);
    expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(1);
    expect(await saga.capturesOf(row.hold_reference)).toBe(1);
    expect(await saga.available(userId)).toBe(credits - TRAINING_COST);
    await expect(saga.rpc.call(TrainingRpc.getRunnableModel, { userId, id: model.id })).resolves.toEqual({
      id: model.id,
      triggerWord: `person${userId}`,
      version: training.output!.version,
      imageKeys: expect.arrayContaining([expect.stringMatching(/\/selfies\//)]),
    });

    // Deleting the model deletes Replicate's too, versions first.
    await expect(saga.rpc.call(TrainingRpc.deleteModel, { userId, id: model.id })).resolves.toEqual({ deleted: true });
    expect(standIn.models().map((m) => `${m.owner}/${m.name}`)).not.toContain(row.provider_model);
  });

  it('should change nothing for a bad signature, a stale timestamp or a replayed id', async () => {
    expect(handledWebhookId).toBeDefined();
    const { model, jobId } = await trainingOf();
    await standIn.completeTraining(jobId, { status: 'succeeded', deliverWebhook: false });

    const forged = await standIn.deliverWebhook(jobId, {
      signatureOverride: `v1,${Buffer.alloc(32).toString('base64')}`,
    });
    const stale = await standIn.deliverWebhook(jobId, { timestampOverride: Math.floor(Date.now() / 1000) - 3600 });
    const unsigned = await standIn.deliverWebhook(jobId, { signatureOverride: '' });
    for (const [delivery] of [forged, stale, unsigned]) {
      expect(delivery!.status).toBe(400);
      expect(JSON.parse(delivery!.responseBody)).toMatchObject({ code: 'TRAINING.WEBHOOK_INVALID' });
    }
    const replayed = await standIn.deliverWebhook(jobId, { idOverride: handledWebhookId! });
    expect(replayed[0]!.status).toBe(200);

    expect((await saga.model(model.id)).status).toBe('training');
    expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(0);

    // The genuine article still works.
    await expect(standIn.deliverWebhook(jobId)).resolves.toMatchObject([{ status: 200 }]);
    expect((await saga.model(model.id)).status).toBe('completed');
  });

  it('should fail a model whose training failed at Replicate, with its words, and give the credits back', async () => {
    const { userId, credits, model, row, jobId } = await trainingOf();
    await standIn.completeTraining(jobId, { status: 'failed', error: 'CUDA out of memory.' });
    const failed = await saga.model(model.id);
    expect(failed.failure_reason).toBe('The training failed: CUDA out of memory. Your credits were not charged.');
    await waitFor(async () => (await saga.holdOf(row.hold_reference))?.status === 'released', {
      what: 'billing to release the hold',
    });
    expect(await saga.available(userId)).toBe(credits);
  });

  it('should lead to exactly one training when the creation answered 502, and train the model', async () => {
    standIn.failNextCreateWith(502);
    const { model, row, jobId } = await trainingOf();
    expect(standIn.trainingsFor(row.provider_model!)).toHaveLength(1);
    expect(standIn.trainingsFor(row.provider_model!)[0]!.id).toBe(jobId);
    await standIn.completeTraining(jobId, { status: 'succeeded' });
    expect((await saga.model(model.id)).status).toBe('completed');
    expect(standIn.trainingsFor(row.provider_model!)).toHaveLength(1);
  });

  it('should complete a training whose webhook never comes through the reconciler', async () => {
    await saga.restartTraining({ RECONCILE_INTERVAL_MS: '200' });
    try {
      const { model, row, jobId } = await trainingOf();
      await standIn.completeTraining(jobId, { status: 'succeeded', deliverWebhook: false });
      await saga.waitForStatus(model.id, 'completed');
      await waitFor(async () => (await saga.holdOf(row.hold_reference))?.status === 'captured', {
        what: 'billing to capture the hold',
      });
      expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(1);
      // The late webhook, when it comes after all, changes nothing.
      await expect(standIn.deliverWebhook(jobId)).resolves.toMatchObject([{ status: 200 }]);
      expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(1);
      expect(await saga.capturesOf(row.hold_reference)).toBe(1);
    } finally {
      await saga.restartTraining({ RECONCILE_INTERVAL_MS: '600000' });
    }
  });

  it('should fail the model and answer 502 when Replicate refuses to start it, with the credits back', async () => {
    await saga.restartTraining({ REPLICATE_API_TOKEN: 'r8_not_a_valid_token' });
    try {
      const userId = newUser();
      const credits = await saga.fund(userId);
      const selfies = await saga.uploadSelfies(userId, 12);
      await expect(refusal(saga.train(userId, selfies))).resolves.toEqual({
        status: 502,
        code: 'TRAINING.PROVIDER_UNAVAILABLE',
        message:
          'The training provider is not available right now. Please try again later. Your credits were not charged.',
      });
      const [listed] = await saga.rpc.call(TrainingRpc.listModels, { userId });
      expect(listed).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/not charged/) });
      await waitFor(async () => (await saga.available(userId)) === credits, { what: 'the credits to come back' });
      await waitFor(async () => (await saga.locksOf(listed!.id)) === 0, { what: 'media to release the selfies' });
    } finally {
      await saga.restartTraining({ REPLICATE_API_TOKEN: standIn.apiToken });
    }
  });
});
