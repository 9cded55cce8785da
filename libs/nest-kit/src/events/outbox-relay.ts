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
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespaced } from '../messaging/nats.js';

import { OutboxMessage } from './outbox-message.entity.js';
import { ensureEventsStream } from './streams.js';

/** The Postgres channel a committed outbox row is announced on (one per service schema). */
export const OUTBOX_CHANNEL = Symbol('OUTBOX_CHANNEL');

const BATCH_SIZE = 100;
const POLL_INTERVAL_MS = 1_000;
const MAX_BACKOFF_MS = 5_000;
const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * Publishes outbox rows to JetStream with `Nats-Msg-Id` = event id, so a row published twice
 * (a crash between publish and commit) is dropped by the stream. Woken by NOTIFY on commit,
 * and by a timer as a fallback; while the broker is away it backs off and keeps the rows.
 * Replicas share the work through `FOR UPDATE SKIP LOCKED`.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private js: JetStreamClient | undefined;
  private streamReady = false;
  private listener: PoolClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(OUTBOX_CHANNEL) private readonly channel: string,
  ) {}

  /** True while publishing: it goes on until the outbox is empty, so a new row needs no wake-up. */
  get draining(): boolean {
    return this.running !== undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.js = jetstream(this.nats);
    await this.listen().catch((error: Error) =>
      this.logger.warn(`Outbox notifications unavailable, polling only: ${error.message}`),
    );
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    if (this.listener) {
      this.listener.removeAllListeners('notification');
      await this.listener.query(`UNLISTEN "${this.channel}"`).catch(() => undefined);
      this.listener.release();
      this.listener = undefined;
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
      } else {
        this.schedule(this.failures === 0 ? POLL_INTERVAL_MS : Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.failures));
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
    this.listener = await pool.connect();
    this.listener.on('notification', () => {
      if (!this.stopped) void this.flush();
    });
    this.listener.on('error', (error: Error) => this.logger.warn(`Outbox listener lost: ${error.message}`));
    await this.listener.query(`LISTEN "${this.channel}"`);
  }

  private async drain(): Promise<void> {
    try {
      if (!this.streamReady) {
        await ensureEventsStream(await jetstreamManager(this.nats), this.settings);
        this.streamReady = true;
      }
      while (!this.stopped && (await this.publishBatch()) > 0);
      if (this.failures > 0) this.logger.log('Event broker reachable again; outbox is flowing');
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      if (this.failures === 1 || this.failures % 20 === 0) {
        this.logger.warn(`Outbox publish deferred (attempt ${this.failures}): ${(error as Error).message}`);
      }
    } finally {
      eventMetrics.pending.set(await this.countPending().catch(() => 0));
    }
  }

  private async publishBatch(): Promise<number> {
    const js = (this.js ??= jetstream(this.nats));
    return this.dataSource.transaction(async (manager) => {
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
      for (const row of rows) {
        const messageHeaders = headers();
        const correlationId = row.envelope.correlationId;
        if (typeof correlationId === 'string') messageHeaders.set(CORRELATION_HEADER, correlationId);
        await js.publish(namespaced(this.settings, row.subject), JSON.stringify(row.envelope), {
          msgID: row.id,
          headers: messageHeaders,
          timeout: PUBLISH_TIMEOUT_MS,
        });
      }
      if (rows.length > 0) {
        await manager.update(
          OutboxMessage,
          rows.map((row) => row.id),
          { publishedAt: () => 'now()' },
        );
        eventMetrics.published.inc(rows.length);
      }
      return rows.length;
    });
  }

  private countPending(): Promise<number> {
    return this.dataSource.getRepository(OutboxMessage).countBy({ publishedAt: IsNull() });
  }
}
