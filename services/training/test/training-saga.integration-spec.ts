import { BillingRpc, TRAINING_COST, TrainingRpc } from '@likeness/contracts';
import { expectSnapshotPaging, waitFor } from '@likeness/testing';
import { TrainingReconciler } from '../src/models/training-reconciler.js';
import { type SagaUnderTest, refusal, startSaga } from './training-harness.js';

const ALREADY_TRAINING = 'You already have a model in training. Please wait until it finishes before training another.';
const SELFIES_NOT_FOUND = 'Some of the chosen selfies were not found. Please choose again.';
const STILL_TRAINING = 'This model is still training. You can delete it once the training has finished.';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the training saga with the local provider', () => {
  let saga: SagaUnderTest;
  let nextUser = 100;
  const newUser = () => (nextUser += 1);

  beforeAll(async () => {
    saga = await startSaga('saga', { LOCAL_TRAINING_MS: '500' });
  });

  afterAll(async () => {
    await saga?.close();
  });

  /** A funded person (55 credits) with `count` selfies. */
  async function person(count = 12) {
    const userId = newUser();
    const credits = await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, count);
    return { userId, credits, selfies };
  }

  const heldHoldsOf = async (userId: number) =>
    (
      await saga.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM billing.holds WHERE user_id = $1 AND status = 'held'`,
        [userId],
      )
    ).rows[0]!.n;
  const modelsOf = async (userId: number) =>
    (
      await saga.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM training.custom_models WHERE user_id = $1`, [
        userId,
      ])
    ).rows[0]!.n;

  it('should train from 12 selfies, announce each step once, charge 30 credits and release the selfies', async () => {
    const { userId, credits, selfies } = await person();
    const started = await saga.train(userId, selfies, { modelName: 'My first model', triggerWord: 'ohwx' });
    expect(started).toEqual({
      id: expect.any(Number),
      modelName: 'My first model',
      triggerWord: 'ohwx',
      status: 'training',
      trainingType: 'flux-lora',
      failureReason: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const row = await saga.model(started.id);
    expect(await saga.eventsOf(started.id, 'TrainingStarted')).toBe(1);
    expect(await saga.holdOf(row.hold_reference)).toEqual({ status: 'held', amount: TRAINING_COST });
    expect(await saga.available(userId)).toBe(credits - TRAINING_COST);
    expect(await saga.locksOf(started.id)).toBe(12);
    expect(row.image_keys).toHaveLength(12);

    const completed = await saga.waitForStatus(started.id, 'completed');
    expect(completed.version).toBe(`local:${started.id}`);
    await waitFor(async () => (await saga.holdOf(row.hold_reference))?.status === 'captured', {
      what: 'billing to capture the hold',
    });
    await waitFor(async () => (await saga.locksOf(started.id)) === 0, { what: 'media to release the selfies' });
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId })).resolves.toEqual([
      { ...started, status: 'completed' },
    ]);
    await expect(saga.rpc.call(TrainingRpc.getRunnableModel, { userId, id: started.id })).resolves.toEqual({
      id: started.id,
      triggerWord: 'ohwx',
      version: `local:${started.id}`,
      imageKeys: expect.arrayContaining([expect.stringMatching(/\/selfies\//)]),
    });

    // More reconciler passes change nothing.
    await saga.training().get(TrainingReconciler).reconcile();
    await sleep(300);
    expect(await saga.eventsOf(started.id, 'TrainingCompleted')).toBe(1);
    expect(await saga.eventsOf(started.id, 'TrainingFailed')).toBe(0);
    expect(await saga.capturesOf(row.hold_reference)).toBe(1);
    await expect(saga.rpc.call(TrainingRpc.getInferenceConfig, {})).resolves.toEqual({ provider: 'local' });
    const balance = await saga.rpc.call(BillingRpc.getBalance, { userId });
    expect(balance).toEqual({ userId, balance: credits - TRAINING_COST, held: 0, available: credits - TRAINING_COST });
  });

  it('should fail a training whose trigger word is fail-training, give the credits back and release the selfies', async () => {
    const { userId, credits, selfies } = await person();
    const started = await saga.train(userId, selfies, { triggerWord: 'fail-training' });
    const failed = await saga.waitForStatus(started.id, 'failed');
    expect(failed.failure_reason).toMatch(/^The training failed: .*fail-training.*\. Your credits were not charged\.$/);
    await waitFor(async () => (await saga.holdOf(failed.hold_reference))?.status === 'released', {
      what: 'billing to release the hold',
    });
    await waitFor(async () => (await saga.locksOf(started.id)) === 0, { what: 'media to release the selfies' });
    expect(await saga.available(userId)).toBe(credits);
    expect(await saga.capturesOf(failed.hold_reference)).toBe(0);
    expect(await saga.eventsOf(started.id, 'TrainingFailed')).toBe(1);
    expect(await saga.eventsOf(started.id, 'TrainingCompleted')).toBe(0);
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId })).resolves.toMatchObject([
      { id: started.id, status: 'failed', failureReason: failed.failure_reason },
    ]);
    await expect(saga.rpc.call(TrainingRpc.getRunnableModel, { userId, id: started.id })).rejects.toMatchObject({
      code: 'TRAINING.MODEL_NOT_READY',
    });
  });

  it('should refuse a second training while one runs, however close together they come, and hold credits once', async () => {
    const { userId, credits, selfies } = await person();
    const attempts = await Promise.allSettled([
      saga.train(userId, selfies, { modelName: 'First' }),
      saga.train(userId, selfies, { modelName: 'Second' }),
    ]);
    const accepted = attempts.filter((attempt) => attempt.status === 'fulfilled');
    const refused = attempts.filter((attempt) => attempt.status === 'rejected');
    expect(accepted).toHaveLength(1);
    expect(refused.map((attempt) => (attempt as PromiseRejectedResult).reason)).toMatchObject([
      { status: 409, code: 'TRAINING.ALREADY_TRAINING', message: ALREADY_TRAINING },
    ]);
    await expect(refusal(saga.train(userId, selfies))).resolves.toEqual({
      status: 409,
      code: 'TRAINING.ALREADY_TRAINING',
      message: ALREADY_TRAINING,
    });
    expect(await heldHoldsOf(userId)).toBe(1);
    expect(await saga.available(userId)).toBe(credits - TRAINING_COST);
    expect(await modelsOf(userId)).toBe(1);

    // Once it has finished, the next one may start.
    const first = (accepted[0] as PromiseFulfilledResult<{ id: number }>).value;
    await saga.waitForStatus(first.id, 'completed');
    await waitFor(async () => (await saga.locksOf(first.id)) === 0, { what: 'the selfies to be released' });
    await saga.fund(userId);
    await expect(saga.train(userId, selfies, { modelName: 'Third' })).resolves.toMatchObject({ status: 'training' });
  });

  it("should refuse another person's or missing selfies with 404 and leave no model and no hold", async () => {
    const owner = await person();
    const { userId, credits, selfies } = await person();
    const mixed = [...selfies.slice(0, 11), owner.selfies[0]!];
    await expect(refusal(saga.train(userId, mixed))).resolves.toEqual({
      status: 404,
      code: 'COMMON.NOT_FOUND',
      message: SELFIES_NOT_FOUND,
    });
    await expect(refusal(saga.train(userId, [...selfies.slice(0, 11), 999_999]))).resolves.toMatchObject({
      status: 404,
      message: SELFIES_NOT_FOUND,
    });
    expect(await modelsOf(userId)).toBe(0);
    expect(await heldHoldsOf(userId)).toBe(0);
    expect(await saga.available(userId)).toBe(credits);
    const locks = await saga.db.query(`SELECT 1 FROM media.training_locks WHERE uploaded_image_id = ANY($1::int[])`, [
      [...selfies, ...owner.selfies],
    ]);
    expect(locks.rows).toEqual([]);
  });

  it('should refuse a training the credits do not cover with 402 and leave nothing', async () => {
    const userId = newUser();
    await saga.rpc.call(BillingRpc.openAccount, { userId });
    const selfies = await saga.uploadSelfies(userId, 12);
    await expect(refusal(saga.train(userId, selfies))).resolves.toEqual({
      status: 402,
      code: 'BILLING.INSUFFICIENT_CREDITS',
      message: 'Insufficient credits: this needs 30 credits and you have 5 available. Please purchase more credits.',
    });
    expect(await modelsOf(userId)).toBe(0);
    const holds = await saga.db.query(`SELECT 1 FROM billing.holds WHERE user_id = $1`, [userId]);
    expect(holds.rows).toEqual([]);
    expect(await saga.available(userId)).toBe(5);
  });

  it('should refuse fewer than 12 selfies with the shared schema message', async () => {
    const { userId, selfies } = await person(11);
    await expect(refusal(saga.train(userId, selfies))).resolves.toEqual({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'At least 12 reference images required',
    });
    expect(await modelsOf(userId)).toBe(0);
  });

  it("should delete only one's own finished models, and refuse while one trains", async () => {
    const { userId, selfies } = await person();
    const other = newUser();
    const model = await saga.train(userId, selfies);
    await expect(refusal(saga.rpc.call(TrainingRpc.deleteModel, { userId, id: model.id }))).resolves.toEqual({
      status: 409,
      code: 'TRAINING.MODEL_TRAINING',
      message: STILL_TRAINING,
    });
    await saga.waitForStatus(model.id, 'completed');
    for (const call of [
      saga.rpc.call(TrainingRpc.deleteModel, { userId: other, id: model.id }),
      saga.rpc.call(TrainingRpc.getRunnableModel, { userId: other, id: model.id }),
      saga.rpc.call(TrainingRpc.deleteModel, { userId, id: 999_999 }),
    ]) {
      await expect(refusal(call)).resolves.toMatchObject({ status: 404, code: 'COMMON.NOT_FOUND' });
    }
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId: other })).resolves.toEqual([]);

    await expect(saga.rpc.call(TrainingRpc.deleteModel, { userId, id: model.id })).resolves.toEqual({ deleted: true });
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId })).resolves.toEqual([]);
    await expect(refusal(saga.rpc.call(TrainingRpc.getRunnableModel, { userId, id: model.id }))).resolves.toMatchObject(
      { status: 404 },
    );
  });

  it('should list newest first', async () => {
    const { userId, selfies } = await person();
    const first = await saga.train(userId, selfies, { triggerWord: 'fail-training', modelName: 'Older' });
    await saga.waitForStatus(first.id, 'failed');
    const second = await saga.train(userId, selfies, { modelName: 'Newer' });
    const listed = await saga.rpc.call(TrainingRpc.listModels, { userId });
    expect(listed.map((model) => model.id)).toEqual([second.id, first.id]);
  });

  it('should resolve a training exactly once when the service restarts while it runs', async () => {
    const { userId, credits, selfies } = await person();
    const started = await saga.train(userId, selfies);
    await saga.stopTraining();
    // The training finishes while nobody is watching.
    await sleep(800);
    expect((await saga.model(started.id)).status).toBe('training');
    await saga.startTraining();

    const completed = await saga.waitForStatus(started.id, 'completed');
    await waitFor(async () => (await saga.holdOf(completed.hold_reference))?.status === 'captured', {
      what: 'billing to capture the hold',
    });
    await saga.training().get(TrainingReconciler).reconcile();
    await sleep(300);
    expect(await saga.eventsOf(started.id, 'TrainingStarted')).toBe(1);
    expect(await saga.eventsOf(started.id, 'TrainingCompleted')).toBe(1);
    expect(await saga.capturesOf(completed.hold_reference)).toBe(1);
    expect(await saga.available(userId)).toBe(credits - TRAINING_COST);
    await waitFor(async () => (await saga.locksOf(started.id)) === 0, { what: 'media to release the selfies' });
  });

  it('should snapshot the models whose training started, page by page, at the times their events told', async () => {
    const failing = await person();
    const failed = await saga.train(failing.userId, failing.selfies, { triggerWord: 'fail-training' });
    await saga.waitForStatus(failed.id, 'failed');
    const models = await expectSnapshotPaging(saga.rpc, TrainingRpc.snapshotModels, (item) => item.modelId);
    const { rows } = await saga.db.query(
      `SELECT envelope FROM training.outbox WHERE subject LIKE 'events.training.Training%' ORDER BY created_at`,
    );
    const told = (modelId: number, name: string) =>
      rows.find(({ envelope }) => envelope.type === `training.${name}` && envelope.payload.modelId === modelId)
        ?.envelope;
    const { rows: pending } = await saga.db.query(`SELECT id FROM training.custom_models WHERE status = 'pending'`);
    const pendingIds = pending.map(({ id }) => id);
    expect(models.filter((model) => pendingIds.includes(model.modelId))).toEqual([]);
    expect(models.map((model) => model.status)).toEqual(expect.arrayContaining(['completed', 'failed']));
    for (const model of models) {
      const started = told(model.modelId, 'TrainingStarted');
      const ended = told(model.modelId, 'TrainingCompleted') ?? told(model.modelId, 'TrainingFailed');
      expect(model).toMatchObject({
        status: ended ? ended.type.replace('training.Training', '').toLowerCase() : 'training',
        failureReason: ended?.payload.reason ?? null,
        startedAt: started?.occurredAt ?? null,
        finishedAt: ended?.occurredAt ?? null,
      });
    }
  });
});
