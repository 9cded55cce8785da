import { AuthEvents, GenerationEvents } from '@likeness/contracts';
import {
  type ReplicateStandIn,
  type TestEventPublisher,
  connectEventPublisher,
  startReplicateStandIn,
  waitFor,
  waitForInbox,
} from '@likeness/testing';
import { type GenerationUnderTest, startGeneration, trainedVersion } from './generation-harness.js';

/**
 * A deleted account's generation jobs, on Replicate (a local stand-in of its API), with the roles
 * apart as they run in production: the API side erases the rows, a worker cancels predictions.
 * The worker runs one job at a time, so a second job waits in the queue.
 */
describe('the erasure of a deleted account in generation', () => {
  let standIn: ReplicateStandIn;
  let sut: GenerationUnderTest;
  let events: TestEventPublisher;

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    const version = await trainedVersion(standIn);
    sut = await startGeneration(
      'generasure',
      { GENERATION_ROLE: 'api', REPLICATE_API_TOKEN: standIn.apiToken, REPLICATE_API_URL: standIn.url },
      { modelVersion: () => version },
    );
    await sut.startReplica({ GENERATION_ROLE: 'worker', WORKER_CONCURRENCY: '1' });
    events = await connectEventPublisher(sut.env.natsUrl, sut.env.namespace);
  });

  afterAll(async () => {
    await events?.close();
    await sut?.close();
    await standIn?.close();
  });

  const predictionsFor = (prompt: string) =>
    standIn.predictions().filter((prediction) => prediction.input['prompt'] === prompt);

  async function startedPrediction(prompt: string) {
    const [prediction] = await waitFor(async () => {
      const started = predictionsFor(prompt);
      return started.length > 0 ? started : undefined;
    });
    return prediction!;
  }

  async function completedJob(userId: number, prompt: string): Promise<string> {
    const { jobId } = await sut.generate(userId, { promptText: prompt });
    standIn.completePrediction((await startedPrediction(prompt)).id, { status: 'succeeded' });
    await sut.finished(userId, jobId, 20_000);
    return jobId;
  }

  it('should cancel the running prediction, never start the queued job, erase every row and end nothing', async () => {
    const [gone, bystander] = [701, 702];
    const done = await completedJob(gone, 'tw7 done before');
    const kept = await completedJob(bystander, 'tw7 of someone else');
    const { jobId: running } = await sut.generate(gone, { promptText: 'tw7 running' });
    const prediction = await startedPrediction('tw7 running');
    await waitFor(async () => (await sut.row(running))?.prediction_id === prediction.id, {
      what: 'the prediction kept on the job',
    });
    const { jobId: queued } = await sut.generate(gone, { promptText: 'tw7 queued' });
    expect((await sut.rowsOf(gone)).map((job) => job.status).sort()).toEqual(['completed', 'pending', 'pending']);

    const eventId = await events.publish(
      AuthEvents.UserDeleted,
      { userId: gone, deletedAt: new Date().toISOString() },
      { copies: 2 },
    );
    await waitForInbox(sut.db, 'generation', eventId);
    expect(await sut.rowsOf(gone)).toEqual([]);
    await waitFor(() => Promise.resolve(standIn.prediction(prediction.id).status === 'canceled'), {
      what: 'the running prediction cancelled at Replicate',
    });
    // The worker lets go of both jobs: their messages leave the queue, and the queued one never starts.
    await waitFor(
      async () => !(await sut.queued()).some((message) => [running, queued].includes(String(message.payload['jobId']))),
      { what: 'the queue done with both jobs', timeoutMs: 20_000 },
    );
    await sut.published();
    expect(predictionsFor('tw7 queued')).toEqual([]);
    // Nothing ends: no capture, no failure (billing releases the holds of a deleted account itself).
    for (const jobId of [running, queued]) {
      expect(await sut.eventsOf(GenerationEvents.GenerationCompleted, jobId)).toEqual([]);
      expect(await sut.eventsOf(GenerationEvents.GenerationFailed, jobId)).toEqual([]);
    }
    expect(await sut.row(done)).toBeUndefined();

    // Again, as a new event: nothing left to do, nothing parked.
    await waitForInbox(
      sut.db,
      'generation',
      await events.publish(AuthEvents.UserDeleted, { userId: gone, deletedAt: new Date().toISOString() }),
    );
    expect((await sut.db.query(`SELECT count(*)::int AS n FROM generation.dead_letters`)).rows[0].n).toBe(0);

    // The other person's job is untouched.
    expect(await sut.row(kept)).toMatchObject({ user_id: bystander, status: 'completed' });
  });
});
