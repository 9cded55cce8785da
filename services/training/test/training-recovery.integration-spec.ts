import { randomUUID } from 'node:crypto';
import { BillingRpc, MediaRpc, TRAINING_COST } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { ModelLeases } from '../src/models/model-leases.js';
import { type SagaUnderTest, startSaga } from './training-harness.js';

/**
 * Trainings that would otherwise never end: starts cut short by a crash (a 'pending' model nobody
 * drives) and trainings that run too long. Local trainings here take a minute, the timeout is
 * 1.5 s and a start counts as abandoned after 300 ms.
 */
describe('the training reconciler', () => {
  let saga: SagaUnderTest;
  let nextUser = 300;
  const newUser = () => (nextUser += 1);

  beforeAll(async () => {
    saga = await startSaga('recovery', {
      LOCAL_TRAINING_MS: '60000',
      RECONCILE_INTERVAL_MS: '200',
      TRAINING_TIMEOUT_MS: '1500',
      PENDING_TIMEOUT_MS: '300',
    });
  });

  afterAll(async () => {
    await saga?.close();
  });

  /**
   * A start begun `agoSeconds` ago whose process died after writing the row (and whatever the
   * test does before `abandon`): until then it looks fresh, so the reconciler leaves it alone.
   */
  async function crashedStart(userId: number, imageIds: number[], agoSeconds: number): Promise<number> {
    const { rows } = await saga.db.query<{ id: number }>(
      `INSERT INTO training.custom_models
         (user_id, model_name, trigger_word, provider, hold_reference, reference_image_ids, created_at, updated_at)
       VALUES ($1, 'Crashed', 'crash', 'local', $2, $3, now() - make_interval(secs => $4), now() + interval '1 hour')
       RETURNING id`,
      [userId, `training:${randomUUID()}`, imageIds, agoSeconds],
    );
    return rows[0]!.id;
  }

  const abandon = (modelId: number) =>
    saga.db.query(`UPDATE training.custom_models SET updated_at = created_at WHERE id = $1`, [modelId]);

  it('should finish a start that died before it held the credits: hold, lock, train, charge once', async () => {
    const userId = newUser();
    const credits = await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, 12);
    // Started two minutes ago: the local training of that attempt has finished by now.
    const modelId = await crashedStart(userId, selfies, 120);
    await abandon(modelId);

    const completed = await saga.waitForStatus(modelId, 'completed');
    await waitFor(async () => (await saga.holdOf(completed.hold_reference))?.status === 'captured', {
      what: 'billing to capture the hold',
    });
    await waitFor(async () => (await saga.locksOf(modelId)) === 0, { what: 'media to release the selfies' });
    expect(await saga.eventsOf(modelId, 'TrainingStarted')).toBe(1);
    expect(await saga.eventsOf(modelId, 'TrainingCompleted')).toBe(1);
    expect(await saga.capturesOf(completed.hold_reference)).toBe(1);
    expect(await saga.available(userId)).toBe(credits - TRAINING_COST);
  });

  it('should fail a start that died after holding credits when a selfie is gone, and give the credits back', async () => {
    const userId = newUser();
    const credits = await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, 12);
    const modelId = await crashedStart(userId, selfies, 120);
    const { hold_reference: reference } = await saga.model(modelId);
    // The crash came after the hold; meanwhile a selfie was deleted.
    await saga.rpc.call(BillingRpc.reserveCredits, { userId, amount: TRAINING_COST, reference });
    await saga.rpc.call(MediaRpc.deleteSelfie, { userId, id: selfies[0]! });
    await abandon(modelId);

    const failed = await saga.waitForStatus(modelId, 'failed');
    expect(failed.failure_reason).toBe(
      'Some of the chosen selfies were deleted before the training started. Your credits were not charged.',
    );
    await waitFor(async () => (await saga.holdOf(reference))?.status === 'released', {
      what: 'billing to release the hold',
    });
    expect(await saga.available(userId)).toBe(credits);
    expect(await saga.locksOf(modelId)).toBe(0);
    expect(await saga.eventsOf(modelId, 'TrainingFailed')).toBe(1);
  });

  it('should leave a start alone while a live process drives it, and take it over once that process is gone', async () => {
    const userId = newUser();
    await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, 12);
    const modelId = await crashedStart(userId, selfies, 120);
    // Another replica's start in progress: it holds the model's lease for a second.
    let untouched: Awaited<ReturnType<typeof saga.model>> | undefined;
    await saga
      .training()
      .get(ModelLeases)
      .hold(modelId, async () => {
        await abandon(modelId);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        untouched = await saga.model(modelId);
      });
    expect(untouched?.status).toBe('pending');
    expect(await saga.holdOf(untouched!.hold_reference)).toBeUndefined();
    await saga.waitForStatus(modelId, 'completed');
    expect(await saga.eventsOf(modelId, 'TrainingStarted')).toBe(1);
  });

  it('should stop a training that runs past the timeout, fail it and give the credits back', async () => {
    const userId = newUser();
    const credits = await saga.fund(userId);
    const selfies = await saga.uploadSelfies(userId, 12);
    const model = await saga.train(userId, selfies);
    expect(model.status).toBe('training');

    const failed = await saga.waitForStatus(model.id, 'failed', 10_000);
    expect(failed.failure_reason).toBe('The training took too long and was stopped. Your credits were not charged.');
    await waitFor(async () => (await saga.holdOf(failed.hold_reference))?.status === 'released', {
      what: 'billing to release the hold',
    });
    await waitFor(async () => (await saga.locksOf(model.id)) === 0, { what: 'media to release the selfies' });
    expect(await saga.available(userId)).toBe(credits);
    expect(await saga.eventsOf(model.id, 'TrainingFailed')).toBe(1);
    expect(await saga.eventsOf(model.id, 'TrainingCompleted')).toBe(0);
  });
});
