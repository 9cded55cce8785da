import { GenerationRpc, type GenerationJob } from '@likeness/contracts';
import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import { ReplicatePredictionProvider } from '@likeness/inference';
import { type ReplicateStandIn, startReplicateStandIn, tempDir, waitFor } from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// Training, billing and media run beside generation in process, as in the training saga's tests.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type SagaUnderTest, startSaga, startWebhookRelay } from '../../training/test/training-harness.js';
import { generationService } from '../src/generation.service-definition.js';

/**
 * Generation on Replicate, against a local stand-in of its API: the worker starts a prediction
 * with the trained version, is woken by its webhook (the safety net's polling is out of reach here), downloads the outputs from their (expiring) URLs into
 * storage and has media keep them. A provider that keeps failing ends the job after
 * JOB_MAX_ATTEMPTS, with the credits given back.
 */
describe('generation jobs on Replicate', () => {
  let standIn: ReplicateStandIn;
  let relay: Awaited<ReturnType<typeof startWebhookRelay>>;
  let saga: SagaUnderTest;
  let generation: NestFastifyApplication;
  let userId: number;
  let modelId: number;
  let version: string;
  const dataDir = tempDir('generation-replicate');

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    relay = await startWebhookRelay(() => saga.rpc);
    // Generation's workers stage downloads where media reads them: one storage for both.
    saga = await startSaga(
      'genrep',
      { ...standIn.env, PUBLIC_URL: relay.url, RECONCILE_INTERVAL_MS: '600000' },
      { PUBLIC_URL: 'https://likeness.example', DATA_DIR: dataDir },
    );
    userId = 700;
    await saga.fund(userId); // 55
    const model = await saga.train(userId, await saga.uploadSelfies(userId, 12), { triggerWord: 'rep_face' });
    const { training } = await standIn.completeTraining((await saga.model(model.id)).training_job_id!, {
      status: 'succeeded',
    });
    await saga.waitForStatus(model.id, 'completed');
    modelId = model.id;
    version = training.output!.version as string;

    const config = loadConfig(generationService.configSchema, {
      ...saga.env.env,
      REPLICATE_API_TOKEN: standIn.apiToken,
      REPLICATE_API_URL: standIn.url,
      // Predictions post their webhooks through the relay, as through the gateway.
      REPLICATE_WEBHOOK_SECRET: standIn.webhookSecret,
      PUBLIC_URL: relay.url,
      PREDICTION_SAFETY_POLL_MS: '600000',
      DATA_DIR: dataDir,
      JOB_ACK_WAIT_MS: '3000',
      JOB_MAX_ATTEMPTS: '2',
    });
    await runMigrations(generationService.database(config));
    generation = await createServiceApp(generationService, config);
    await waitFor(async () => (await saga.available(userId)) === 25, { what: 'the training charged' });
  });

  afterAll(async () => {
    await generation?.close();
    await saga?.close();
    await relay?.close();
    await standIn?.close();
  });

  const generate = (promptText: string, numOutputs = 1) =>
    saga.rpc.call(GenerationRpc.generateAvatar, { userId, customModelId: modelId, promptText, numOutputs });
  const job = (jobId: string) => saga.rpc.call(GenerationRpc.getJob, { userId, jobId });
  const finished = (jobId: string) =>
    waitFor(
      async () => {
        const current = await job(jobId);
        return current.status === 'pending' ? undefined : current;
      },
      { what: `job ${jobId} to finish`, timeoutMs: 20_000 },
    );
  const predictionFor = (prompt: string) =>
    waitFor(async () => standIn.predictions().find((prediction) => prediction.input['prompt'] === prompt), {
      what: `a prediction for "${prompt}"`,
    });
  const attemptsOf = async (jobId: string) =>
    (
      await saga.db.query<{ attempts: number }>(`SELECT attempts FROM generation.generation_jobs WHERE id = $1`, [
        jobId,
      ])
    ).rows[0]?.attempts;
  const holdOf = (jobId: string) => saga.holdOf(`generation:${jobId}`);

  it('should run the trained version, copy both outputs into our storage and charge 5 credits', async () => {
    const { jobId } = await generate('rep_face on a mountain', 2);
    const prediction = await predictionFor('rep_face on a mountain');
    expect(prediction.version).toBe(version.split(':')[1]);
    expect(prediction.input).toMatchObject({ num_outputs: 2 });

    standIn.completePrediction(prediction.id, { status: 'succeeded' });
    const done: GenerationJob = await finished(jobId);
    expect(done).toMatchObject({ status: 'completed', failureReason: null });
    expect(done.avatarIds).toHaveLength(2);

    const avatars = await saga.db.query<{ storage_key: string; source_ref: string }>(
      `SELECT storage_key, source_ref FROM media.avatars WHERE id = ANY($1) ORDER BY source_ref`,
      [done.avatarIds],
    );
    expect(avatars.rows.map((row) => row.source_ref)).toEqual([`generation:${jobId}:1`, `generation:${jobId}:2`]);
    // Kept under the owner's prefix, not at the provider's URL.
    for (const row of avatars.rows) expect(row.storage_key).toMatch(new RegExp(`^users/${userId}/avatars/.+\\.jpg$`));
    await waitFor(async () => (await holdOf(jobId))?.status === 'captured', { what: 'the hold captured' });
    expect(await saga.available(userId)).toBe(20);
  });

  it('should try again after a provider error and complete on the second attempt', async () => {
    standIn.failNextPredictionCreates(1, { status: 503 });
    const { jobId } = await generate('rep_face after a hiccup');
    const prediction = await predictionFor('rep_face after a hiccup');
    standIn.completePrediction(prediction.id, { status: 'succeeded' });
    expect(await finished(jobId)).toMatchObject({ status: 'completed' });
    expect(await attemptsOf(jobId)).toBe(2);
    expect(standIn.predictions().filter((item) => item.input['prompt'] === 'rep_face after a hiccup')).toHaveLength(1);
    await waitFor(async () => (await saga.available(userId)) === 15, { what: 'charged once' });
  });

  it('should fail the job after its last attempt while the provider is down, and give the credits back', async () => {
    standIn.failNextPredictionCreates(2, { status: 503 });
    const { jobId } = await generate('rep_face while Replicate is down');
    const failed = await finished(jobId);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe(
      'We could not create your avatar after 2 attempts. Your credits were not charged.',
    );
    expect(await attemptsOf(jobId)).toBe(2);
    await waitFor(async () => (await holdOf(jobId))?.status === 'released', { what: 'the hold released' });
    expect(await saga.available(userId)).toBe(15);
  });

  it("should fail the job with the provider's words when the prediction fails", async () => {
    const { jobId } = await generate('rep_face, something the model cannot do');
    const prediction = await predictionFor('rep_face, something the model cannot do');
    standIn.completePrediction(prediction.id, { status: 'failed', error: 'CUDA out of memory' });
    const failed = await finished(jobId);
    expect(failed).toMatchObject({
      status: 'failed',
      failureReason:
        'The image provider could not create your avatar: CUDA out of memory. Your credits were not charged.',
      avatarIds: [],
    });
    await waitFor(async () => (await holdOf(jobId))?.status === 'released', { what: 'the hold released' });
    expect(await saga.available(userId)).toBe(15);
  });

  it('should complete a job once however often, and however concurrently, its webhook arrives', async () => {
    const { jobId } = await generate('rep_face, told three times');
    const prediction = await predictionFor('rep_face, told three times');
    expect(new URL(prediction.webhook!).searchParams.get('job')).toBe(jobId);
    standIn.completePrediction(prediction.id, { status: 'succeeded', deliverWebhook: false });

    const deliveries = (await Promise.all([1, 2, 3].map(() => standIn.deliverPredictionWebhook(prediction.id)))).flat();
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    const done = await finished(jobId);
    expect(done.status).toBe('completed');
    expect(done.avatarIds).toHaveLength(1);
    await standIn.deliverPredictionWebhook(prediction.id, { times: 2 });

    await waitFor(async () => (await holdOf(jobId))?.status === 'captured', { what: 'the hold captured' });
    expect(await saga.available(userId)).toBe(10);
    const avatars = await saga.db.query(`SELECT id FROM media.avatars WHERE source_ref LIKE $1`, [
      `generation:${jobId}:%`,
    ]);
    expect(avatars.rowCount).toBe(1);
    const completions = await saga.db.query(
      `SELECT id FROM generation.outbox WHERE subject LIKE '%GenerationCompleted%' AND envelope -> 'payload' ->> 'jobId' = $1`,
      [jobId],
    );
    expect(completions.rowCount).toBe(1);
    const charges = await saga.db.query(
      `SELECT amount FROM billing.ledger_entries WHERE account = $1 AND idempotency_key = $2`,
      [`user:${userId}`, `capture:generation:${jobId}`],
    );
    expect(charges.rows).toEqual([{ amount: -5 }]);
  });

  it('should refuse a prediction webhook whose signature does not match, and change nothing', async () => {
    const { jobId } = await generate('rep_face, forged');
    const prediction = await predictionFor('rep_face, forged');
    standIn.completePrediction(prediction.id, { status: 'succeeded', deliverWebhook: false });

    const [forged] = await standIn.deliverPredictionWebhook(prediction.id, {
      signatureOverride: `v1,${Buffer.alloc(32).toString('base64')}`,
    });
    expect(forged!.status).toBe(400);
    expect(JSON.parse(forged!.responseBody)).toMatchObject({ code: 'GENERATION.WEBHOOK_INVALID' });
    expect((await job(jobId)).status).toBe('pending');

    await standIn.deliverPredictionWebhook(prediction.id);
    expect(await finished(jobId)).toMatchObject({ status: 'completed' });
  });

  it('should adopt the prediction a creation whose answer was lost started, and pay for one', async () => {
    standIn.failNextPredictionCreates(1, { status: 502, lost: true });
    const { jobId } = await generate('rep_face, answer lost');
    const prediction = await predictionFor('rep_face, answer lost');
    standIn.completePrediction(prediction.id, { status: 'succeeded' });
    expect(await finished(jobId)).toMatchObject({ status: 'completed' });
    expect(await attemptsOf(jobId)).toBe(1);
    expect(standIn.predictions().filter((item) => item.input['prompt'] === 'rep_face, answer lost')).toHaveLength(1);
  });

  it('should find the prediction it started for a job again, so a worker that died before keeping its id pays once', async () => {
    const adapter = new ReplicatePredictionProvider({ apiToken: standIn.apiToken, baseUrl: standIn.url });
    const request = {
      version,
      prompt: 'rep_face, asked by a worker that died',
      numOutputs: 1,
      webhookUrl: `${relay.url}/api/webhooks/replicate`,
      tag: '6f1c1f3e-5b38-4d4c-9d7e-3c2b1a0f9e8d',
    };
    const first = await adapter.startPrediction(request);
    expect(await adapter.startPrediction(request)).toEqual(first);
    expect(standIn.predictions().filter((item) => item.input['prompt'] === request.prompt)).toHaveLength(1);
    standIn.completePrediction(first.id, { status: 'canceled', deliverWebhook: false });
  });
});
