import { type EventEnvelope, type JobPayload, defineJob } from '@likeness/contracts';
import {
  AttemptsExhaustedError,
  type JobContext,
  JobHandler,
  type JobOptions,
  type JobProcessor,
  OutboxService,
  isJobQueued,
  metricsRegistry,
  namespaced,
  namespacedStream,
} from '@likeness/nest-kit';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Inject, Injectable, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { type TestServiceEnvironment, waitFor } from '../src/index.js';
import { createKitEnvironment, startKitApp } from './kit-app.js';

const workJob = defineJob({ queue: 'kit', name: 'work', version: 1, payload: z.object({ key: z.string() }) });
type Work = JobPayload<typeof workJob>;

/** What a job does, by key: fail its first attempts, take a while. */
const plans = new Map<string, { failTimes?: number; durationMs?: number }>();
const runs: { key: string; attempt: number; app: string; startedAt: number; endedAt?: number; aborted?: boolean }[] =
  [];
const givenUp: { key: string; attempt: number; error: unknown }[] = [];
const APP = Symbol('APP');

const runsOf = (key: string) => runs.filter((run) => run.key === key);

function processorWith(options: JobOptions): Type {
  @Injectable()
  @JobHandler(workJob, options)
  class WorkProcessor implements JobProcessor<typeof workJob> {
    constructor(@Inject(APP) private readonly app: string) {}

    async run({ key }: Work, { attempt, signal }: JobContext): Promise<void> {
      const run: (typeof runs)[number] = { key, attempt, app: this.app, startedAt: Date.now() };
      runs.push(run);
      const plan = plans.get(key) ?? {};
      try {
        if (plan.durationMs) await sleep(plan.durationMs, undefined, { signal });
      } catch (error) {
        run.aborted = true;
        throw error;
      }
      run.endedAt = Date.now();
      if (attempt <= (plan.failTimes ?? 0)) throw new Error(`attempt ${attempt} of ${key} failed`);
    }

    async giveUp({ key }: Work, error: unknown, { attempt }: JobContext): Promise<void> {
      givenUp.push({ key, attempt, error });
    }
  }
  return WorkProcessor;
}

@Injectable()
class Enqueuer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** Queues the job; returns its message's key (the message id: workJob names no key of its own). */
  enqueue(key: string, options: { rollback?: boolean } = {}): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const id = await this.outbox.enqueue(manager, workJob, { key });
      if (options.rollback) throw new Error('changed my mind');
      return id;
    });
  }
}

const options: JobOptions = {
  concurrency: 2,
  ackWaitMs: 1_000,
  maxAttempts: 3,
  backoff: { initialMs: 300, maxMs: 2_000 },
};

describe('work-queue jobs (JobHandler)', () => {
  let env: TestServiceEnvironment;
  const apps: NestFastifyApplication[] = [];

  const start = async (label: string, jobOptions = options, overrides: Record<string, string> = {}) => {
    const app = await startKitApp(
      env,
      [{ provide: APP, useValue: label }, Enqueuer, processorWith(jobOptions)],
      overrides,
    );
    apps.push(app);
    return app;
  };

  const stop = async (app: NestFastifyApplication) => {
    apps.splice(apps.indexOf(app), 1);
    await app.close();
  };

  beforeAll(async () => {
    env = await createKitEnvironment('jobs');
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await env?.database.drop();
  });

  it('should run a job queued in a committed transaction once, and never one that rolled back', async () => {
    const app = await start('a');
    await expect(app.get(Enqueuer).enqueue('ghost', { rollback: true })).rejects.toThrow('changed my mind');
    await app.get(Enqueuer).enqueue('once');
    await waitFor(async () => runsOf('once')[0]?.endedAt, { what: 'the job to run' });
    await sleep(1_500);
    expect(runsOf('once')).toHaveLength(1);
    expect(runsOf('ghost')).toHaveLength(0);
  });

  it('should retry a failing job with a growing delay until it succeeds', async () => {
    plans.set('flaky', { failTimes: 2 });
    const app = await start('a');
    await app.get(Enqueuer).enqueue('flaky');
    await waitFor(async () => runsOf('flaky').length === 3, { timeoutMs: 15_000, what: 'three attempts' });
    const [first, second, third] = runsOf('flaky');
    expect([first?.attempt, second?.attempt, third?.attempt]).toEqual([1, 2, 3]);
    // 300 ms after the first failure, 600 ms after the second (the back-off's lower bounds).
    expect(second!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(250);
    expect(third!.startedAt - second!.endedAt!).toBeGreaterThanOrEqual(550);
    await sleep(1_500);
    expect(runsOf('flaky')).toHaveLength(3);
    expect(givenUp.filter((entry) => entry.key === 'flaky')).toHaveLength(0);
  });

  it('should give a job up once, with its last error, when every attempt failed', async () => {
    plans.set('doomed', { failTimes: 99 });
    const app = await start('a');
    await app.get(Enqueuer).enqueue('doomed');
    await waitFor(async () => givenUp.some((entry) => entry.key === 'doomed'), { timeoutMs: 15_000, what: 'give-up' });
    await sleep(1_500);
    expect(runsOf('doomed').map((run) => run.attempt)).toEqual([1, 2, 3]);
    const [gaveUp, ...more] = givenUp.filter((entry) => entry.key === 'doomed');
    expect(more).toHaveLength(0);
    expect(gaveUp?.attempt).toBe(3);
    expect((gaveUp?.error as Error).message).toBe('attempt 3 of doomed failed');
  });

  it('should keep a job that runs past the ack wait alive with heartbeats', async () => {
    plans.set('long', { durationMs: 3_500 });
    const app = await start('a');
    await app.get(Enqueuer).enqueue('long');
    await waitFor(async () => runsOf('long')[0]?.endedAt, { timeoutMs: 10_000, what: 'the long job' });
    await sleep(1_500);
    expect(runsOf('long').map((run) => run.attempt)).toEqual([1]);
  });

  it('should run at most `concurrency` jobs at once in a process and share the queue between processes', async () => {
    const keys = Array.from({ length: 8 }, (_, index) => `shared-${index}`);
    for (const key of keys) plans.set(key, { durationMs: 500 });
    const first = await start('first');
    await start('second');
    for (const key of keys) await first.get(Enqueuer).enqueue(key);
    await waitFor(async () => keys.every((key) => runsOf(key)[0]?.endedAt), { timeoutMs: 15_000, what: 'every job' });
    const shared = runs.filter((run) => keys.includes(run.key));
    expect(shared).toHaveLength(8);
    for (const app of ['first', 'second']) {
      const own = shared.filter((run) => run.app === app);
      expect(own.length).toBeGreaterThan(0);
      const mostAtOnce = Math.max(
        ...own.map(
          (run) => own.filter((other) => other.startedAt <= run.startedAt && other.endedAt! > run.startedAt).length,
        ),
      );
      expect(mostAtOnce).toBeLessThanOrEqual(2);
    }
  });

  it('should give up without running a job delivered after its last attempt (its worker died)', async () => {
    const app = await start('a', { ...options, maxAttempts: 2 });
    await stop(app);
    // Two deliveries nobody acknowledges, as if two workers died holding the job.
    const nc = await connect({ servers: env.natsUrl });
    const js = jetstream(nc);
    const envelope: EventEnvelope = {
      id: '7f9619ff-8b86-4d11-b42d-00c04fc964aa',
      type: 'kit.work',
      version: 1,
      occurredAt: new Date().toISOString(),
      payload: { key: 'orphan' },
    };
    await js.publish(namespaced({ namespace: env.namespace }, `${workJob.subject}.orphan`), JSON.stringify(envelope));
    const consumer = await js.consumers.get(namespacedStream({ namespace: env.namespace }, 'JOBS'), workJob.consumer);
    for (let delivery = 1; delivery <= 2; delivery += 1) {
      const message = await consumer.next({ expires: 3_000 });
      expect(message?.info.deliveryCount).toBe(delivery);
    }
    await nc.close();

    await start('b', { ...options, maxAttempts: 2 });
    await waitFor(async () => givenUp.some((entry) => entry.key === 'orphan'), { timeoutMs: 10_000, what: 'give-up' });
    const gaveUp = givenUp.find((entry) => entry.key === 'orphan');
    expect(gaveUp?.attempt).toBe(3);
    expect(gaveUp?.error).toBeInstanceOf(AttemptsExhaustedError);
    expect(runsOf('orphan')).toHaveLength(0);
  });

  it('should finish a running job on shutdown, and hand back one that outlives the grace period', async () => {
    plans.set('finishes', { durationMs: 1_000 });
    const patient = await start('patient', options, { SHUTDOWN_GRACE_MS: '5000' });
    await patient.get(Enqueuer).enqueue('finishes');
    await waitFor(async () => runsOf('finishes').length === 1, { what: 'the job to start' });
    await stop(patient);
    expect(runsOf('finishes')[0]?.endedAt).toBeDefined();

    plans.set('handed-back', { durationMs: 4_000 });
    const hasty = await start('hasty', options, { SHUTDOWN_GRACE_MS: '300' });
    await hasty.get(Enqueuer).enqueue('handed-back');
    await waitFor(async () => runsOf('handed-back').length === 1, { what: 'the job to start' });
    await stop(hasty);
    expect(runsOf('handed-back')[0]?.aborted).toBe(true);

    plans.set('handed-back', {});
    await start('next');
    await waitFor(async () => runsOf('handed-back').find((run) => run.app === 'next')?.endedAt, {
      what: 'another process to take the job over',
    });
    // A later delivery: the hand-back counts as one (and a pull answered during the shutdown may too).
    const [handedBack, takenOver, ...more] = runsOf('handed-back');
    expect([handedBack?.app, handedBack?.attempt, takenOver?.app]).toEqual(['hasty', 1, 'next']);
    expect(takenOver?.attempt).toBeGreaterThan(1);
    expect(more).toHaveLength(0);
    expect(runsOf('finishes')).toHaveLength(1);
  });

  it('should say a job is queued while it waits or runs, and not once it is done', async () => {
    plans.set('watched', { durationMs: 1_500 });
    const app = await start('a');
    const messageKey = await app.get(Enqueuer).enqueue('watched');
    const nc = await connect({ servers: env.natsUrl });
    const jsm = await jetstreamManager(nc);
    const settings = { url: env.natsUrl, namespace: env.namespace, name: 'test' };
    try {
      await waitFor(async () => runsOf('watched').length === 1, { what: 'the job to start' });
      expect(await isJobQueued(jsm, settings, workJob, messageKey)).toBe(true);
      await waitFor(async () => runsOf('watched')[0]?.endedAt, { what: 'the job to end' });
      await waitFor(async () => !(await isJobQueued(jsm, settings, workJob, messageKey)), { what: 'the message gone' });
      expect(await isJobQueued(jsm, settings, workJob, 'never-queued')).toBe(false);
    } finally {
      await nc.close();
    }
  });

  it('should drop a malformed message and keep working', async () => {
    const app = await start('a');
    const nc = await connect({ servers: env.natsUrl });
    await jetstream(nc).publish(
      namespaced({ namespace: env.namespace }, `${workJob.subject}.garbage`),
      '{"not":"a job"}',
    );
    await nc.close();
    await app.get(Enqueuer).enqueue('after-garbage');
    await waitFor(async () => runsOf('after-garbage')[0]?.endedAt, { what: 'the next job' });
  });

  it('should report how many jobs wait, how many run and how old the oldest is on /metrics', async () => {
    const queueMetric = async (name: string) => {
      const line = (await metricsRegistry.metrics())
        .split('\n')
        .find((text) => text.startsWith(`${name}{job="${workJob.subject}"}`));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    plans.set('queued-1', { durationMs: 2_000 });
    const app = await start('a', { ...options, concurrency: 1 });
    for (const key of ['queued-1', 'queued-2', 'queued-3']) await app.get(Enqueuer).enqueue(key);
    await waitFor(async () => runsOf('queued-1')[0], { what: 'the first job to start' });
    await waitFor(async () => (await queueMetric('likeness_job_queue_waiting')) === 2, { what: 'two jobs waiting' });
    expect(await queueMetric('likeness_job_queue_in_progress')).toBe(1);
    expect(await queueMetric('likeness_job_queue_oldest_seconds')).toBeGreaterThan(0);

    await waitFor(async () => runsOf('queued-3')[0]?.endedAt, { timeoutMs: 15_000, what: 'every job to run' });
    await waitFor(async () => (await queueMetric('likeness_job_queue_oldest_seconds')) === 0, {
      what: 'an empty queue',
    });
    expect(await queueMetric('likeness_job_queue_waiting')).toBe(0);
  });
});
