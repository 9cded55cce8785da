import { setTimeout as sleep } from 'node:timers/promises';
import { type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient, Pool } from 'pg';
import { DataSource, IsNull } from 'typeorm';
import { eventMetrics } from '../health/metrics.js';
import { CORRELATION_HEADER } from '../logging/correlation.js';
import { setTraceHeaders } from '../tracing/trace-context.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespaced } from '../messaging/nats.js';

import { OutboxMessage } from './outbox-message.entity.js';
import { ensureJobsStream } from '../jobs/jobs-stream.js';
import { FailureStreak } from '../resilience/backoff.js';
import { ensureEventsStream } from './streams.js';

/** The connection LISTENing for commits, and how to give it back (once). */
interface Listener {
  client: PoolClient;
  release(error?: Error): void;
}

/** The Postgres channel a committed outbox row is announced on (one per service schema). */
export const OUTBOX_CHANNEL = Symbol('OUTBOX_CHANNEL');

/** Rows one transaction claims and publishes, all in flight at once. */
const BATCH_SIZE = 250;
const POLL_INTERVAL_MS = 1_000;
/**
 * A row written while the relay was draining sent no NOTIFY (see `wouldSeeRowsAddedNow`); its
 * transaction may commit just after the relay's last look, so the relay looks once more this soon.
 */
const FOLLOW_UP_MS = 10;
const PUBLISH_TIMEOUT_MS = 5_000;
const STREAM_SETUP_WAIT_MS = 2_000;

/**
 * Publishes outbox rows to JetStream with `Nats-Msg-Id` = event id, so a row published twice
 * (a crash between publish and commit) is dropped by the stream. Woken by NOTIFY on commit,
 * and by a timer as a fallback; while the broker is away it backs off and keeps the rows.
 * Replicas share the work through `FOR UPDATE SKIP LOCKED`.
 *
 * Each transaction claims up to BATCH_SIZE rows (oldest first), sends all their publishes at once
 * (one connection: the stream stores them in that order) and awaits the acks together, then marks
 * the acknowledged rows published in one statement. A publish that fails leaves its row
 * unpublished for the next attempt, after a pause, while the acknowledged ones are kept: so after a
 * failure an event may reach the stream after a later one (as it may with several replicas, which
 * the consumers allow for: see the README's "Balances").
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private js: JetStreamClient | undefined;
  private streamReady = false;
  private listener: Listener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** A row was written without a NOTIFY during this drain. */
  private unannounced = false;
  private readonly streak = new FailureStreak();
  private retryInMs = 0;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(OUTBOX_CHANNEL) private readonly channel: string,
  ) {}

  /**
   * True while publishing: the relay goes on until the outbox is empty, and looks once more
   * FOLLOW_UP_MS after that, so a row written now needs no NOTIFY (which serialises commits).
   */
  wouldSeeRowsAddedNow(): boolean {
    if (this.running === undefined) return false;
    this.unannounced = true;
    return true;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.js = jetstream(this.nats);
    await this.listen().catch((error: Error) =>
      this.logger.warn(`Outbox notifications unavailable, polling only: ${error.message}`),
    );
    // The streams exist once the service is up (publishers and consumers can count on them); a
    // broker that is still starting must not hold the service back: the relay retries meanwhile.
    await Promise.race([this.ensureStreams().catch(() => undefined), sleep(STREAM_SETUP_WAIT_MS)]);
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    const listener = this.listener;
    if (listener) {
      await listener.client.query(`UNLISTEN "${this.channel}"`).catch(() => undefined);
      listener.release();
    }
  }

  /** Publishes everything pending now; resolves when the outbox is empty or the broker refused. */
  flush(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      } else if (this.unannounced && this.streak.failures === 0) {
        this.unannounced = false;
        this.schedule(FOLLOW_UP_MS);
      } else {
        this.schedule(this.streak.failures === 0 ? POLL_INTERVAL_MS : this.retryInMs);
      }
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private async listen(): Promise<void> {
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    let listening = false;
    let released = false;
    const onNotification = () => {
      if (!this.stopped) void this.flush();
    };
    const onError = (error: Error) => {
      // The connection is gone (the database restarted, a network cut): polling goes on, and a
      // new listener is set up once the database answers again.
      this.logger.warn(`Outbox listener lost, polling until it is back: ${error.message}`);
      listener.release(error);
      // A listener lost while still starting is retried by whoever started it.
      if (listening) this.listenAgain(new FailureStreak());
    };
    // Gives the connection back once, whoever gets there first (an error, a failed start, shutdown);
    // a broken one (with its error) is destroyed by the pool rather than reused.
    const listener: Listener = {
      client,
      release: (error?: Error) => {
        if (released) return;
        released = true;
        if (this.listener === listener) this.listener = undefined;
        client.removeListener('notification', onNotification);
        client.removeListener('error', onError);
        client.release(error);
      },
    };
    this.listener = listener;
    client.on('notification', onNotification);
    client.on('error', onError);
    try {
      await client.query(`LISTEN "${this.channel}"`);
      listening = true;
    } catch (error) {
      listener.release(error as Error);
      throw error;
    }
  }

  private listenAgain(streak: FailureStreak): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (this.stopped) return;
      this.listen().then(
        () => this.logger.log('Outbox listener is back'),
        () => this.listenAgain(streak),
      );
    }, streak.fail()).unref();
  }

  private async drain(): Promise<void> {
    try {
      await this.ensureStreams();
      while (!this.stopped && (await this.publishBatch()) > 0);
      if (this.streak.reset()) this.logger.log('Event broker reachable again; outbox is flowing');
    } catch (error) {
      // The stream may be what is missing (a broker that lost its store): set it up again next time.
      this.streamReady = false;
      this.retryInMs = this.streak.fail();
      if (this.streak.worthLogging) {
        this.logger.warn(`Outbox publish deferred (attempt ${this.streak.failures}): ${(error as Error).message}`);
      }
    } finally {
      eventMetrics.pending.set(await this.countPending().catch(() => 0));
    }
  }

  /** Events and queued jobs both leave through the outbox: their streams must exist. */
  private async ensureStreams(): Promise<void> {
    if (this.streamReady) return;
    const jsm = await jetstreamManager(this.nats);
    await ensureEventsStream(jsm, this.settings);
    await ensureJobsStream(jsm, this.settings);
    this.streamReady = true;
  }

  /** Publishes one batch; the rows published, or the first publish's error once the others are marked. */
  private async publishBatch(): Promise<number> {
    const js = (this.js ??= jetstream(this.nats));
    const { published, failure } = await this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .getRepository(OutboxMessage)
        .createQueryBuilder('message')
        .where('message.publishedAt IS NULL')
        .orderBy('message.createdAt', 'ASC')
        .addOrderBy('message.id', 'ASC')
        .limit(BATCH_SIZE)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      const outcomes = await Promise.allSettled(rows.map((row) => this.publish(js, row)));
      const acknowledged = rows.filter((_, index) => outcomes[index]?.status === 'fulfilled');
      if (acknowledged.length > 0) {
        await manager.update(
          OutboxMessage,
          acknowledged.map((row) => row.id),
          { publishedAt: () => 'now()' },
        );
      }
      const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
      return { published: acknowledged, failure: rejected?.reason as Error | undefined };
    });
    // Counted once committed: a batch that rolls back is published again by the next one.
    for (const row of published) eventMetrics.published.inc({ type: row.envelope.type });
    if (failure) throw failure;
    return published.length;
  }

  private publish(js: JetStreamClient, row: OutboxMessage) {
    const messageHeaders = headers();
    const correlationId = row.envelope.correlationId;
    if (typeof correlationId === 'string') messageHeaders.set(CORRELATION_HEADER, correlationId);
    setTraceHeaders(messageHeaders, row.envelope.trace);
    return js.publish(namespaced(this.settings, row.subject), JSON.stringify(row.envelope), {
      msgID: row.id,
      headers: messageHeaders,
      timeout: PUBLISH_TIMEOUT_MS,
    });
  }

  private countPending(): Promise<number> {
    return this.dataSource.getRepository(OutboxMessage).countBy({ publishedAt: IsNull() });
  }
}
