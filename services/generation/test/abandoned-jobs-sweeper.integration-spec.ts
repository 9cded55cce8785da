import { GenerationEvents } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { AbandonedJobsSweeper } from '../src/jobs/abandoned-jobs-sweeper.js';
import { FailureReasons } from '../src/jobs/failure-reasons.js';
import { type GenerationUnderTest, startGeneration } from './generation-harness.js';

/**
 * The safety net under the queue: a job still pending after every attempt could have run (with
 * the default timings used here, 42 minutes: (10 min + 30 s) × 4) and whose message is gone from
 * the queue fails with GenerationFailed, on which billing gives the credits back. API processes
 * only, so no worker takes the jobs; the tests age a job by moving its created_at back, and lose
 * its message as a purged stream would.
 */
describe(AbandonedJobsSweeper.name, () => {
  let sut: GenerationUnderTest;

  beforeAll(async () => {
    sut = await startGeneration('gensweeper', {
      GENERATION_ROLE: 'api',
      SWEEP_INTERVAL_MS: '200',
      JOB_TIMEOUT_MS: String(10 * 60_000),
      JOB_ACK_WAIT_MS: '30000',
      JOB_MAX_ATTEMPTS: '3',
    });
  });

  afterAll(async () => {
    await sut?.close();
  });

  const ageInQueue = (jobIds: string[], interval: string) =>
    sut.db.query(`UPDATE generation.generation_jobs SET created_at = now() - $2::interval WHERE id = ANY($1)`, [
      jobIds,
      interval,
    ]);
  /** Aged, and its message lost. */
  const age = async (jobIds: string[], interval: string) => {
    await ageInQueue(jobIds, interval);
    for (const jobId of jobIds) await sut.loseJobMessage(jobId);
  };
  const failedEvents = (jobId: string) => sut.eventsOf(GenerationEvents.GenerationFailed, jobId);

  /** An abandoned job of its own, failed by a sweep: every sweep until then has come and gone. */
  async function sweptOnceMore(): Promise<void> {
    const { jobId } = await sut.generate(299);
    await age([jobId], '1 hour');
    await waitFor(async () => (await sut.row(jobId))?.status === 'failed', { what: 'the marker job swept' });
  }

  it('should fail a job left pending past the stale bound once, and announce GenerationFailed', async () => {
    const { jobId } = await sut.generate(201, { promptText: 'tw7 lost in the queue' });
    await age([jobId], '43 minutes');

    const failed = await sut.finished(201, jobId);
    expect(failed).toMatchObject({ status: 'failed', failureReason: FailureReasons.abandoned, avatarIds: [] });
    expect(failed.completedAt).not.toBeNull();
    const [event] = await waitFor(async () => {
      const events = await failedEvents(jobId);
      return events.length > 0 ? events : undefined;
    });
    // Billing releases the hold it names.
    expect(event).toEqual({
      jobId,
      userId: 201,
      holdReference: `generation:${jobId}`,
      reason: FailureReasons.abandoned,
    });

    await sweptOnceMore();
    await sweptOnceMore();
    expect(await failedEvents(jobId)).toHaveLength(1);
    expect(await sut.eventsOf(GenerationEvents.GenerationCompleted, jobId)).toEqual([]);
  });

  it('should leave jobs that may still finish, and jobs that have ended, alone', async () => {
    const recent = (await sut.generate(202, { promptText: 'tw7 still running' })).jobId;
    const completed = (await sut.generate(202, { promptText: 'tw7 done long ago' })).jobId;
    const failed = (await sut.generate(202, { promptText: 'tw7 failed long ago' })).jobId;
    await age([recent], '40 minutes');
    await sut.db.query(
      `UPDATE generation.generation_jobs
       SET status = 'completed', results = '{"avatarIds":[41]}', completed_at = now() - interval '1 hour',
           created_at = now() - interval '2 hours'
       WHERE id = $1`,
      [completed],
    );
    await sut.db.query(
      `UPDATE generation.generation_jobs
       SET status = 'failed', failure_reason = 'The model was deleted.', completed_at = now() - interval '1 hour',
           created_at = now() - interval '2 hours'
       WHERE id = $1`,
      [failed],
    );
    const before = await Promise.all([completed, failed].map((jobId) => sut.row(jobId)));

    await sweptOnceMore();
    await sweptOnceMore();

    expect(await sut.job(202, recent)).toMatchObject({ status: 'pending', failureReason: null });
    expect(await sut.job(202, completed)).toMatchObject({ status: 'completed', avatarIds: [41], failureReason: null });
    expect(await sut.job(202, failed)).toMatchObject({ status: 'failed', failureReason: 'The model was deleted.' });
    expect(await Promise.all([completed, failed].map((jobId) => sut.row(jobId)))).toEqual(before);
    for (const jobId of [recent, completed, failed]) expect(await failedEvents(jobId)).toEqual([]);
  });

  it('should leave a job waiting in a backlog alone, however old, while its message is queued', async () => {
    const waiting = (await sut.generate(204, { promptText: 'tw7 behind a long queue' })).jobId;
    await ageInQueue([waiting], '3 hours');

    await sweptOnceMore();
    await sweptOnceMore();

    expect(await sut.job(204, waiting)).toMatchObject({ status: 'pending', failureReason: null });
    expect(await failedEvents(waiting)).toEqual([]);
  });

  it('should fail each abandoned job once when two replicas sweep at the same time', async () => {
    const replica = await sut.startReplica();
    try {
      const jobIds: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        jobIds.push((await sut.generate(203, { promptText: `tw7 abandoned ${index}` })).jobId);
      }
      await age(jobIds, '1 hour');

      await waitFor(async () => (await sut.rowsOf(203)).every((row) => row.status === 'failed'), {
        what: 'every abandoned job failed',
      });
      await sweptOnceMore();
      const events = (await sut.eventsOf(GenerationEvents.GenerationFailed)).filter((event) => event.userId === 203);
      expect(events.map((event) => event.jobId).sort()).toEqual([...jobIds].sort());
    } finally {
      await replica.stop();
    }
  });
});
