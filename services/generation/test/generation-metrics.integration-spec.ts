import { TrainingRpc, runGenerationJob } from '@likeness/contracts';
import { connectNats } from '@likeness/nest-kit';
import {
  type MetricsScrape,
  type ReplicateStandIn,
  scrapeMetrics,
  startReplicateStandIn,
  waitFor,
} from '@likeness/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { ProviderRateLimiter } from '../src/workers/provider-rate-limiter.js';
import { type GenerationUnderTest, startGeneration, startGenerationOnReplicate } from './generation-harness.js';

/**
 * What an on-call engineer's dashboard reads from a generation worker's `/metrics` (its health
 * port), after real runs through the queue: each job's outcome, its stages, its attempts, the
 * provider's errors by kind and the waits for the shared provider budget. The series are read as
 * a dashboard reads them, by name and labels.
 */
type Worker = Awaited<ReturnType<GenerationUnderTest['startReplica']>>;

/** The generation queue's label in the kit's job metrics. */
const GENERATE_JOB = runGenerationJob.subject;

async function settled(sut: GenerationUnderTest, jobId: string): Promise<void> {
  await waitFor(async () => !(await sut.queued()).some((message) => message.payload['jobId'] === jobId), {
    what: `the queue done with job ${jobId}`,
  });
  await sut.published();
}

/** What changed between two scrapes, for one series (counters and histograms only grow). */
const grew = (before: MetricsScrape, after: MetricsScrape, name: string, labels: Record<string, string> = {}) =>
  after.sum(name, labels) - before.sum(name, labels);

describe('generation metrics with the local generator', () => {
  // 12 a minute: a budget of 2 predictions at once, then one every 5 seconds.
  const RATE_PER_MINUTE = 12;
  let sut: GenerationUnderTest;
  let worker: Worker;
  let workerUrl: string;
  let nats: NatsConnection;
  const natsSettings = () => ({ url: sut.env.natsUrl, namespace: sut.env.namespace, name: 'metrics-test' });

  beforeAll(async () => {
    sut = await startGeneration('genmetrics', {
      GENERATION_ROLE: 'api',
      PROVIDER_RATE_LIMIT_PER_MINUTE: String(RATE_PER_MINUTE),
    });
    worker = await sut.startReplica({ GENERATION_ROLE: 'worker' });
    workerUrl = await worker.app.getUrl();
    nats = await connectNats(natsSettings());
  });

  afterAll(async () => {
    await nats?.drain();
    await sut?.close();
  });

  it('should count outcomes, attempts, stages and rate-limit waits with the labels the dashboard reads', async () => {
    const before = await scrapeMetrics(workerUrl);

    const completed = await sut.generate(501, { promptText: 'tw7 on a beach' });
    expect(await sut.finished(501, completed.jobId)).toMatchObject({ status: 'completed' });
    const failed = await sut.generate(502, { promptText: 'tw7 fail-generation please' });
    expect(await sut.finished(502, failed.jobId)).toMatchObject({ status: 'failed' });

    // Another worker replica spends the account's budget: the next prediction has to wait for it.
    await new ProviderRateLimiter(nats, natsSettings(), RATE_PER_MINUTE).acquire();
    const waited = await sut.generate(503, { promptText: 'tw7 after a wait' });
    expect(await sut.finished(503, waited.jobId, 30_000)).toMatchObject({ status: 'completed' });
    for (const { jobId } of [completed, failed, waited]) await settled(sut, jobId);

    const after = await scrapeMetrics(workerUrl);
    const change = (name: string, labels?: Record<string, string>) => grew(before, after, name, labels);
    expect(change('likeness_generation_outcomes_total', { outcome: 'completed' })).toBe(2);
    expect(change('likeness_generation_outcomes_total', { outcome: 'prediction_failed' })).toBe(1);
    expect(change('likeness_generation_job_seconds_count', { result: 'completed' })).toBe(2);
    expect(change('likeness_generation_job_seconds_count', { result: 'failed' })).toBe(1);
    // Each took one attempt.
    expect(change('likeness_generation_attempts_count', { result: 'completed' })).toBe(2);
    expect(change('likeness_generation_attempts_sum', { result: 'completed' })).toBe(2);
    expect(change('likeness_generation_attempts_bucket', { result: 'failed', le: '1' })).toBe(1);

    const stage = (name: string) =>
      change('likeness_generation_stage_seconds_count', { stage: name, provider: 'local' });
    expect([stage('queued'), stage('model'), stage('start'), stage('prediction')]).toEqual([3, 3, 3, 3]);
    // One output kept for each completed job; the local generator's outputs need no download.
    expect(stage('store')).toBe(2);
    expect(after.has('likeness_generation_stage_seconds_count', { stage: 'download' })).toBe(false);

    expect(change('likeness_generation_rate_limit_wait_seconds_count')).toBe(1);
    expect(change('likeness_generation_rate_limit_wait_seconds_sum')).toBeGreaterThan(0);
    expect(after.has('likeness_generation_provider_errors_total')).toBe(false);

    // The kit's series for the same queue, which the dashboard's queue panels read.
    expect(change('likeness_jobs_total', { job: GENERATE_JOB, outcome: 'done' })).toBe(3);
    expect(after.has('likeness_job_queue_oldest_seconds', { job: GENERATE_JOB })).toBe(true);
  });
});

describe('generation metrics on Replicate', () => {
  let standIn: ReplicateStandIn;
  let sut: GenerationUnderTest;
  let workerUrl: string;

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    let worker: Worker;
    ({ sut, worker } = await startGenerationOnReplicate('genmetricsrep', standIn));
    workerUrl = await worker.app.getUrl();
  });

  afterEach(async () => {
    await sut.answerAsUsual();
  });

  afterAll(async () => {
    await sut?.close();
    await standIn?.close();
  });

  /** Runs a job whose prediction the stand-in completes once it has started; returns the finished job. */
  async function generateThroughReplicate(userId: number, prompt: string) {
    const { jobId } = await sut.generate(userId, { promptText: prompt });
    const prediction = await waitFor(async () =>
      standIn.predictions().find((candidate) => candidate.input['prompt'] === prompt),
    );
    standIn.completePrediction(prediction.id, { status: 'succeeded' });
    const job = await sut.finished(userId, jobId, 30_000);
    await settled(sut, jobId);
    return job;
  }

  it('should count provider errors by operation and kind, and the attempts they cost', async () => {
    const before = await scrapeMetrics(workerUrl);

    // Replicate's client tries a 429 six times before it gives up: the seventh creation succeeds.
    standIn.failNextPredictionCreates(6, { status: 429 });
    expect(await generateThroughReplicate(601, 'tw7 while rate limited')).toMatchObject({ status: 'completed' });
    standIn.failNextPredictionCreates(1, { status: 502 });
    expect(await generateThroughReplicate(602, 'tw7 after a bad gateway')).toMatchObject({ status: 'completed' });

    // A version Replicate does not know: 422, which no retry changes.
    await sut.standIns.answer(TrainingRpc.getRunnableModel, (request) => ({
      ...sut.runnableModel(request.id),
      version: `${standIn.owner}/deleted-model:${'0'.repeat(64)}`,
    }));
    const { jobId } = await sut.generate(603, { promptText: 'tw7 with a deleted model' });
    expect(await sut.finished(603, jobId)).toMatchObject({ status: 'failed' });
    await settled(sut, jobId);

    const after = await scrapeMetrics(workerUrl);
    const change = (name: string, labels?: Record<string, string>) => grew(before, after, name, labels);
    const errors = (kind: string) =>
      change('likeness_generation_provider_errors_total', { provider: 'replicate', operation: 'start', kind });
    expect([errors('rate_limited'), errors('server_error'), errors('rejected')]).toEqual([1, 1, 1]);
    expect(change('likeness_generation_provider_errors_total')).toBe(3);

    expect(change('likeness_generation_outcomes_total', { outcome: 'completed' })).toBe(2);
    expect(change('likeness_generation_outcomes_total', { outcome: 'provider_refused' })).toBe(1);
    // The two that met an error took a second attempt; the refused one failed on its first.
    expect(change('likeness_generation_attempts_sum', { result: 'completed' })).toBe(4);
    expect(change('likeness_generation_attempts_sum', { result: 'failed' })).toBe(1);
    expect(change('likeness_jobs_total', { job: GENERATE_JOB, outcome: 'retried' })).toBe(2);

    const stage = (name: string) =>
      change('likeness_generation_stage_seconds_count', { stage: name, provider: 'replicate' });
    expect(stage('start')).toBe(5);
    expect([stage('prediction'), stage('download'), stage('store')]).toEqual([2, 2, 2]);
  });
});
