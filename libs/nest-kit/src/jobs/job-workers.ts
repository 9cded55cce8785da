import { setTimeout as sleep } from 'node:timers/promises';
import {
  type JobDefinition,
  type JobLane,
  eventEnvelopeSchema,
  jobLaneConsumer,
  jobLaneSubject,
  jobLanesOf,
} from '@likeness/contracts';
import { type Consumer, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { jobMetrics } from '../health/metrics.js';
import { runWithCorrelation } from '../logging/correlation.js';
import { contextFromCarrier, startMessagingSpan } from '../tracing/trace-context.js';
import { ensureConsumer } from '../messaging/jetstream-setup.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '../messaging/nats.js';
import { type BackoffPolicy, FailureStreak, backoffDelay } from '../resilience/backoff.js';
import {
  JOB_HANDLER_METADATA,
  type JobContext,
  type JobHandlerMetadata,
  type JobOptions,
  type JobProcessor,
} from './job-handler.decorator.js';
import { watchJobQueue } from './job-queue-metrics.js';
import { ensureJobsStream } from './jobs-stream.js';

/** How long one pull waits for a job before asking again (and noticing a shutdown). */
const PULL_EXPIRES_MS = 2_000;
/** A job with lanes listens on one lane at a time while all are empty: the shortest pull JetStream's client allows. */
const LANE_PULL_EXPIRES_MS = 1_000;
const RETRY_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000 };
/** Jobs delivered and not yet finished, across every replica, before the queue holds back. */
const MAX_ACK_PENDING = 1_000;

/** Thrown into `giveUp` when a delivery arrives after the last attempt (its worker died). */
export class AttemptsExhaustedError extends Error {
  constructor(attempts: number) {
    super(`every one of ${attempts} attempt(s) ended without an answer`);
    this.name = 'AttemptsExhaustedError';
  }
}

interface Worker {
  job: JobDefinition;
  options: Required<JobOptions>;
  processor: JobProcessor<JobDefinition>;
  /** Each lane's consumer, once found; the standard lane's key is ''. */
  consumers: Map<string, Consumer>;
  /** Pulls so far, by every slot: decides whose turn it is to go first. */
  pulls: number;
  /** Stops each lane's queue report, once its consumer is found. */
  stopWatching: (() => void)[];
}

interface InFlight {
  message: JsMsg;
  abort: AbortController;
}

/**
 * Runs every `@JobHandler` of the app: `concurrency` loops per job, each pulling one message
 * only when it is free (nothing waits in a local buffer that a busier replica could have
 * taken). A job with lanes is pulled from its highest lane that has work, except that every
 * `standardShare`-th pull prefers the standard lane (see JobLanes). While a job runs its message is kept alive with `working` heartbeats; a job that
 * throws is handed back with a growing delay; after the last attempt `giveUp` settles it. On
 * shutdown the loops stop pulling and finish what they hold; what still runs when
 * SHUTDOWN_GRACE_MS ends is handed back at once for another replica.
 */
@Injectable()
export class JobWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobWorkers.name);
  private readonly inFlight = new Set<InFlight>();
  private readonly workers: Worker[] = [];
  private loops: Promise<void>[] = [];
  private stopping = false;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: ServiceConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const metadata = this.reflector.get<JobHandlerMetadata | undefined>(JOB_HANDLER_METADATA, wrapper.metatype);
      if (!metadata) continue;
      const options =
        typeof metadata.options === 'function' ? metadata.options(this.config as never) : metadata.options;
      const worker: Worker = {
        job: metadata.job,
        options: { backoff: RETRY_BACKOFF, ...options },
        processor: wrapper.instance as JobProcessor<JobDefinition>,
        consumers: new Map(),
        pulls: 0,
        stopWatching: [],
      };
      this.workers.push(worker);
      for (let slot = 1; slot <= worker.options.concurrency; slot += 1) this.loops.push(this.loop(worker, slot));
      this.logger.log(`Taking ${metadata.job.subject} jobs, ${worker.options.concurrency} at a time`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const worker of this.workers) for (const stop of worker.stopWatching.splice(0)) stop();
    const drained = Promise.all(this.loops).then(() => true);
    const timedOut = sleep(this.config.SHUTDOWN_GRACE_MS).then(() => false);
    if (!(await Promise.race([drained, timedOut]))) {
      this.logger.warn(`Handing ${this.inFlight.size} unfinished job(s) back to the queue`);
      for (const flight of this.inFlight) {
        flight.message.nak();
        flight.abort.abort();
      }
      await Promise.race([drained, sleep(2_000)]);
    }
  }

  private async loop(worker: Worker, slot: number): Promise<void> {
    const streak = new FailureStreak();
    while (!this.stopping) {
      try {
        const message = await this.next(worker);
        if (streak.reset() && slot === 1) this.logger.log(`The ${worker.job.subject} queue is reachable again`);
        if (!message) continue;
        if (this.stopping) {
          message.nak();
          break;
        }
        await this.handle(worker, message);
      } catch (error) {
        if (this.stopping) break;
        worker.consumers.clear();
        const wait = streak.fail();
        if (streak.worthLogging) {
          this.logger.warn(
            `Worker slot ${slot} of ${worker.job.subject} waiting for the queue: ${(error as Error).message}`,
          );
        }
        await sleep(wait);
      }
    }
  }

  /** The next message for a free slot, or null when none came in time. */
  private async next(worker: Worker): Promise<JsMsg | null> {
    if (!worker.job.lanes) return (await this.consumer(worker, undefined)).next({ expires: PULL_EXPIRES_MS });
    const order = pullOrder(worker);
    // The first lane in this pull's order that has messages waiting gives one.
    for (const lane of order) {
      const consumer = await this.consumer(worker, lane);
      if ((await consumer.info()).num_pending === 0) continue;
      const message = await consumer.next({ expires: LANE_PULL_EXPIRES_MS });
      if (message) return message;
    }
    // All empty (or their messages are being retried later): listen on one lane, a different one each time.
    const listened = order[worker.pulls % order.length];
    return (await this.consumer(worker, listened)).next({ expires: LANE_PULL_EXPIRES_MS });
  }

  private async consumer(worker: Worker, lane: JobLane): Promise<Consumer> {
    const known = worker.consumers.get(lane ?? '');
    if (known) return known;
    const { job, options } = worker;
    const jsm = await jetstreamManager(this.nats);
    const stream = await ensureJobsStream(jsm, this.settings);
    const durable = jobLaneConsumer(job, lane);
    // No delivery limit on the broker's side: a delivery past the last attempt gives the job up,
    // and a give-up that fails (its database away) is tried again rather than forgotten.
    await ensureConsumer(jsm, this.settings, stream, {
      durable,
      filterSubject: `${jobLaneSubject(job, lane)}.>`,
      ackWaitMs: options.ackWaitMs,
      maxDeliver: -1,
      maxAckPending: MAX_ACK_PENDING,
    });
    const consumer = await jetstream(this.nats).consumers.get(stream, durable);
    worker.consumers.set(lane ?? '', consumer);
    worker.stopWatching.push(watchJobQueue(job, lane, this.nats, jsm, this.settings));
    return consumer;
  }

  private async handle(worker: Worker, message: JsMsg): Promise<void> {
    const { job, options, processor } = worker;
    const envelope = eventEnvelopeSchema.safeParse(safeJson(message));
    const payload = envelope.success ? job.payload.safeParse(envelope.data.payload) : undefined;
    if (!envelope.success || !payload?.success) {
      // A malformed message will not get better by redelivery.
      this.logger.error(`Dropping malformed ${job.subject} message ${message.seq}`);
      jobMetrics.outcomes.inc({ job: job.subject, outcome: 'malformed' });
      message.term();
      return;
    }
    const flight: InFlight = { message, abort: new AbortController() };
    const context: JobContext = {
      attempt: message.info.deliveryCount,
      maxAttempts: options.maxAttempts,
      signal: flight.abort.signal,
      envelope: envelope.data,
    };
    this.inFlight.add(flight);
    const heartbeat = setInterval(() => message.working(), Math.max(500, Math.floor(options.ackWaitMs / 3)));
    const timer = jobMetrics.duration.startTimer({ job: job.subject });
    const trace = startMessagingSpan(
      `job ${job.subject}`,
      'consumer',
      contextFromCarrier(envelope.data.trace),
      job.subject,
    );
    await trace.run(() =>
      runWithCorrelation(envelope.data.correlationId, async () => {
        let outcome: 'done' | 'retried' | 'gave_up' | 'handed_back';
        try {
          if (context.attempt > options.maxAttempts) {
            await processor.giveUp(payload.data, new AttemptsExhaustedError(options.maxAttempts), context);
            outcome = 'gave_up';
          } else {
            try {
              await processor.run(payload.data, context);
              outcome = 'done';
            } catch (error) {
              if (flight.abort.signal.aborted) throw error;
              if (context.attempt < options.maxAttempts) throw error;
              await processor.giveUp(payload.data, error, context);
              outcome = 'gave_up';
            }
          }
          message.ack();
        } catch (error) {
          if (flight.abort.signal.aborted) {
            // Already handed back by the shutdown.
            outcome = 'handed_back';
          } else {
            const delayMs = backoffDelay(options.backoff, context.attempt);
            this.logger.warn(
              `${job.subject} attempt ${context.attempt} failed, retrying in ${delayMs} ms: ${(error as Error).message}`,
            );
            message.nak(delayMs);
            outcome = 'retried';
          }
        } finally {
          clearInterval(heartbeat);
          this.inFlight.delete(flight);
        }
        timer({ outcome });
        jobMetrics.outcomes.inc({ job: job.subject, outcome });
        if (outcome !== 'done') trace.span.setAttribute('likeness.job.outcome', outcome);
        trace.span.end();
      }),
    );
  }
}

/**
 * The lanes in the order this pull tries them: highest first, except every `standardShare`-th
 * pull, which tries the standard lane first, so it keeps moving under any amount of priority work.
 */
function pullOrder(worker: Worker): JobLane[] {
  const lanes = jobLanesOf(worker.job);
  worker.pulls += 1;
  const share = worker.job.lanes?.standardShare ?? 1;
  return worker.pulls % share === 0 ? [undefined, ...lanes.slice(0, -1)] : lanes;
}

function safeJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
