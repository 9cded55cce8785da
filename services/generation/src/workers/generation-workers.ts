import { setTimeout as sleep } from 'node:timers/promises';
import { eventEnvelopeSchema, runGenerationJob } from '@likeness/contracts';
import { APP_CONFIG, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '@likeness/nest-kit';
import { type Consumer, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { GenerationConfig } from '../generation.config.js';
import { ensureWorkersConsumer } from '../queue/jobs-stream.js';
import { JobRunner } from './job-runner.js';

/** How long one pull waits for a job before asking again (and noticing a shutdown). */
const PULL_EXPIRES_MS = 2_000;

interface InFlight {
  message: JsMsg;
  abort: AbortController;
}

/**
 * A worker process's share of the queue: WORKER_CONCURRENCY loops, each pulling one job only
 * when it is free (nothing waits in a local buffer that a busier process could have taken).
 * While a job runs its message is kept alive with `working` heartbeats; a job that throws is
 * handed back with a growing delay; the last attempt's error fails it. On SIGTERM the loops stop
 * pulling and finish what they hold; what is still running when the grace period ends is
 * handed back at once for another worker.
 */
@Injectable()
export class GenerationWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(GenerationWorkers.name);
  private readonly inFlight = new Set<InFlight>();
  private loops: Promise<void>[] = [];
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    private readonly runner: JobRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.loops = Array.from({ length: this.config.WORKER_CONCURRENCY }, (_, slot) => this.loop(slot));
    this.logger.log(`Taking generation jobs, ${this.config.WORKER_CONCURRENCY} at a time`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const drained = Promise.all(this.loops).then(() => true);
    const timedOut = sleep(this.config.SHUTDOWN_GRACE_MS).then(() => false);
    if (!(await Promise.race([drained, timedOut]))) {
      this.logger.warn(`Handing ${this.inFlight.size} unfinished job(s) back to the queue`);
      for (const job of this.inFlight) {
        job.message.nak();
        job.abort.abort();
      }
      await Promise.race([drained, sleep(2_000)]);
    }
  }

  private async loop(slot: number): Promise<void> {
    let failures = 0;
    let consumer: Consumer | undefined;
    while (!this.stopping) {
      try {
        consumer ??= await this.consumer();
        const message = await consumer.next({ expires: PULL_EXPIRES_MS });
        failures = 0;
        if (!message) continue;
        if (this.stopping) {
          message.nak();
          break;
        }
        await this.handle(message);
      } catch (error) {
        if (this.stopping) break;
        consumer = undefined;
        failures += 1;
        if (failures === 1 || failures % 20 === 0) {
          this.logger.warn(`Worker slot ${slot} waiting for the queue: ${(error as Error).message}`);
        }
        await sleep(Math.min(5_000, 250 * 2 ** failures));
      }
    }
  }

  private async consumer(): Promise<Consumer> {
    const { stream, durable } = await ensureWorkersConsumer(await jetstreamManager(this.nats), this.settings, {
      ackWaitMs: this.config.JOB_ACK_WAIT_MS,
      maxDeliver: this.config.JOB_MAX_ATTEMPTS + 1,
    });
    return jetstream(this.nats).consumers.get(stream, durable);
  }

  private async handle(message: JsMsg): Promise<void> {
    const envelope = eventEnvelopeSchema.safeParse(safeJson(message));
    const job = envelope.success ? runGenerationJob.payload.safeParse(envelope.data.payload) : undefined;
    if (!job?.success) {
      this.logger.error(`Dropping malformed job message ${message.seq}`);
      message.term();
      return;
    }
    const { jobId } = job.data;
    const delivery = message.info.deliveryCount;
    const flight: InFlight = { message, abort: new AbortController() };
    this.inFlight.add(flight);
    const heartbeat = setInterval(() => message.working(), Math.max(500, Math.floor(this.config.JOB_ACK_WAIT_MS / 3)));
    try {
      await this.runner.run(jobId, delivery, flight.abort.signal);
      message.ack();
    } catch (error) {
      if (flight.abort.signal.aborted) return;
      if (delivery >= this.config.JOB_MAX_ATTEMPTS) {
        await this.runner.giveUp(jobId, error);
        message.ack();
      } else {
        const delayMs = Math.min(60_000, 1_000 * 2 ** (delivery - 1));
        this.logger.warn(
          `Job ${jobId} attempt ${delivery} failed, retrying in ${delayMs} ms: ${(error as Error).message}`,
        );
        message.nak(delayMs);
      }
    } finally {
      clearInterval(heartbeat);
      this.inFlight.delete(flight);
    }
  }
}

function safeJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
