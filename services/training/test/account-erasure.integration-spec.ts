import { AuthEvents, TrainingRpc } from '@likeness/contracts';
import {
  type ReplicateStandIn,
  type TestEventPublisher,
  connectEventPublisher,
  startReplicateStandIn,
  waitFor,
  waitForInbox,
} from '@likeness/testing';
import { type SagaUnderTest, startSaga, startWebhookRelay } from './training-harness.js';

/**
 * A deleted account's models, trained on Replicate (a local stand-in of its API). Billing and
 * media run beside training and hear the same UserDeleted, as in production.
 */
describe('the erasure of a deleted account in training', () => {
  let saga: SagaUnderTest;
  let standIn: ReplicateStandIn;
  let relay: Awaited<ReturnType<typeof startWebhookRelay>>;
  let events: TestEventPublisher;
  let nextUser = 600;

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    relay = await startWebhookRelay(() => saga.rpc);
    saga = await startSaga(
      'erasure',
      { ...standIn.env, PUBLIC_URL: relay.url, RECONCILE_INTERVAL_MS: '600000' },
      { PUBLIC_URL: 'https://likeness.example' },
    );
    events = await connectEventPublisher(saga.env.natsUrl, saga.env.namespace);
  });

  afterAll(async () => {
    await events?.close();
    await saga?.close();
    await relay?.close();
    await standIn?.close();
  });

  /** A person with a completed model and another one training. */
  async function personWithModels() {
    const userId = (nextUser += 1);
    await saga.fund(userId, 2);
    const selfies = await saga.uploadSelfies(userId, 12);
    const completed = await saga.train(userId, selfies);
    await standIn.completeTraining((await saga.model(completed.id)).training_job_id!, { status: 'succeeded' });
    await saga.waitForStatus(completed.id, 'completed');
    const training = await saga.train(userId, selfies, { modelName: 'Second' });
    return { userId, completed: await saga.model(completed.id), training: await saga.model(training.id) };
  }

  const destinations = () => standIn.models().map((model) => `${model.owner}/${model.name}`);

  it('should cancel the running training, delete both models at Replicate, and erase the rows', async () => {
    const gone = await personWithModels();
    const bystander = await personWithModels();

    const eventId = await events.publish(
      AuthEvents.UserDeleted,
      { userId: gone.userId, deletedAt: new Date().toISOString() },
      { copies: 2 },
    );
    await waitFor(() => Promise.resolve(standIn.training(gone.training.training_job_id!).status === 'canceled'), {
      what: 'the running training cancelled at Replicate',
    });
    await waitFor(() => Promise.resolve(!destinations().includes(gone.completed.provider_model!)), {
      what: 'the completed model deleted at Replicate',
    });
    expect(destinations()).not.toContain(gone.training.provider_model);
    await waitForInbox(saga.db, 'training', eventId);
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId: gone.userId })).resolves.toEqual([]);
    await expect(
      saga.rpc.call(TrainingRpc.getRunnableModel, { userId: gone.userId, id: gone.completed.id }),
    ).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
    // Billing gave the running training's credits back; media let go of its selfies.
    await waitFor(async () => (await saga.holdOf(gone.training.hold_reference))?.status === 'released', {
      what: "the running training's hold released",
    });
    await waitFor(async () => (await saga.locksOf(gone.training.id)) === 0, { what: 'the selfies released' });

    // The training's end, reported after all, finds nothing to complete and charges nothing.
    await expect(standIn.deliverWebhook(gone.training.training_job_id!)).resolves.toMatchObject([{ status: 200 }]);
    expect(await saga.eventsOf(gone.training.id, 'TrainingCompleted')).toBe(0);
    expect(await saga.capturesOf(gone.training.hold_reference)).toBe(0);

    // The same deletion again (a new event) finds nothing left and fails nowhere.
    const again = await events.publish(AuthEvents.UserDeleted, {
      userId: gone.userId,
      deletedAt: new Date().toISOString(),
    });
    await waitForInbox(saga.db, 'training', again);
    const parked = await saga.db.query(`SELECT count(*)::int AS n FROM training.dead_letters`);
    expect(parked.rows[0].n).toBe(0);

    // The other person's models are untouched, here and at Replicate.
    expect(destinations()).toEqual(
      expect.arrayContaining([bystander.completed.provider_model, bystander.training.provider_model]),
    );
    expect(standIn.training(bystander.training.training_job_id!).status).not.toBe('canceled');
    await expect(saga.rpc.call(TrainingRpc.listModels, { userId: bystander.userId })).resolves.toHaveLength(2);
  });
});
