import { setTimeout as sleep } from 'node:timers/promises';
import { type EventEnvelope, eventEnvelopeSchema } from '@likeness/contracts';
import { type ConsumerMessages, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { discoverMethods } from '../bootstrap/discover-methods.js';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { eventMetrics } from '../health/metrics.js';
import { runWithCorrelation } from '../logging/correlation.js';
import { ensureConsumer } from '../messaging/jetstream-setup.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '../messaging/nats.js';
import { FailureStreak, backoffDelay } from '../resilience/backoff.js';
import { DeadLetter } from './dead-letter.entity.js';
import { EVENT_HANDLER_METADATA, type EventContext, type EventHandlerMetadata } from './event-handler.decorator.js';
import { InboxMessage } from './inbox-message.entity.js';
import { ensureEventsStream } from './streams.js';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

const ACK_WAIT_MS = 30_000;
const MAX_ACK_PENDING = 1_000;

interface Subscription extends EventHandlerMetadata {
  durable: string;
  /** Failed attempts before the event is parked. */
  attempts: number;
  handle: (payload: unknown, context: EventContext) => Promise<void>;
  messages?: ConsumerMessages;
  loop?: Promise<void>;
}

/**
 * Runs every `@EventHandler` of the app on its own durable pull consumer with explicit acks. No
 * event is ever dropped: a failed attempt is retried with a growing pause (at most
 * EVENT_RETRY_MAX_MS), so an outage of a database or a service only delays it; an event that has
 * failed EVENT_MAX_ATTEMPTS times is parked in the service's dead-letter table, with an error
 * log and a metric, until an operator replays it (`node dist/main.js replay-dead-letters`).
 */
@Injectable()
export class EventConsumers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventConsumers.name);
  private readonly subscriptions: Subscription[] = [];
  private stopping = false;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(SERVICE_NAME) private readonly service: string,
    @Inject(APP_CONFIG) private readonly config: ServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    const handlers = discoverMethods<EventHandlerMetadata>(
      this.discovery,
      this.scanner,
      this.reflector,
      EVENT_HANDLER_METADATA,
    );
    for (const { metadata, call } of handlers) {
      const { event } = metadata;
      this.subscriptions.push({
        ...metadata,
        attempts: metadata.maxDeliver ?? this.config.EVENT_MAX_ATTEMPTS,
        durable: `${this.service}-${event.service}-${event.name}-v${event.version}`,
        handle: (payload, context) => call(payload, context) as Promise<void>,
      });
    }
    for (const subscription of this.subscriptions) subscription.loop = this.run(subscription);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const subscription of this.subscriptions) subscription.messages?.stop();
    await Promise.all(this.subscriptions.map((subscription) => subscription.loop));
  }

  private async run(subscription: Subscription): Promise<void> {
    const streak = new FailureStreak();
    while (!this.stopping) {
      try {
        const stream = await this.ensureConsumer(subscription);
        const consumer = await jetstream(this.nats).consumers.get(stream, subscription.durable);
        subscription.messages = await consumer.consume({ max_messages: 16 });
        // Shutdown began while this consumer was still being set up: nobody else will stop it.
        if (this.stopping) {
          subscription.messages.stop();
          break;
        }
        streak.reset();
        for await (const message of subscription.messages) {
          await this.process(subscription, message);
          if (this.stopping) break;
        }
      } catch (error) {
        if (this.stopping) break;
        const wait = streak.fail();
        if (streak.worthLogging) {
          this.logger.warn(`Consumer ${subscription.durable} waiting for the broker: ${(error as Error).message}`);
        }
        await sleep(wait);
      }
    }
  }

  private async ensureConsumer(subscription: Subscription): Promise<string> {
    const jsm = await jetstreamManager(this.nats);
    const stream = await ensureEventsStream(jsm, this.settings);
    await ensureConsumer(jsm, this.settings, stream, {
      durable: subscription.durable,
      filterSubject: subscription.event.subject,
      ackWaitMs: ACK_WAIT_MS,
      // The broker never stops offering an event: only a parked one is acknowledged unhandled.
      maxDeliver: -1,
      maxAckPending: MAX_ACK_PENDING,
    });
    return stream;
  }

  private async process(subscription: Subscription, message: JsMsg): Promise<void> {
    const type = `${subscription.event.service}.${subscription.event.name}`;
    const deliveryCount = message.info.deliveryCount;
    const envelope = eventEnvelopeSchema.safeParse(safeJson(message));
    const payload = envelope.success ? subscription.event.payload.safeParse(envelope.data.payload) : undefined;
    if (!envelope.success || !payload?.success) {
      // A malformed event will not get better by redelivery.
      this.logger.error(`Dropping malformed ${type} event ${message.seq} for ${subscription.durable}`);
      eventMetrics.consumed.inc({ type, outcome: 'malformed' });
      message.term();
      return;
    }

    try {
      const handled = await runWithCorrelation(envelope.data.correlationId, () =>
        this.dataSource.transaction(async (manager) => {
          const inserted = await manager
            .createQueryBuilder()
            .insert()
            .into(InboxMessage)
            .values({ eventId: envelope.data.id, consumer: subscription.durable })
            .orIgnore()
            .returning(['eventId'])
            .execute();
          if (inserted.raw.length === 0) return false;
          await subscription.handle(payload.data, { envelope: envelope.data, manager, deliveryCount });
          return true;
        }),
      );
      message.ack();
      eventMetrics.consumed.inc({ type, outcome: handled ? 'handled' : 'duplicate' });
    } catch (error) {
      const reason = (error as Error).message;
      if (deliveryCount >= subscription.attempts && (await this.park(subscription, message, envelope.data, error))) {
        this.logger.error(
          `Parked ${type} event ${envelope.data.id} for ${subscription.durable} after ${deliveryCount} failed deliveries ` +
            `(replay it with \`node dist/main.js replay-dead-letters\` once the cause is fixed): ${reason}`,
        );
        eventMetrics.consumed.inc({ type, outcome: 'dead_lettered' });
        message.ack();
        return;
      }
      const delayMs = backoffDelay({ initialMs: 1_000, maxMs: this.config.EVENT_RETRY_MAX_MS }, deliveryCount);
      this.logger.warn(
        `${type} event ${envelope.data.id} failed (delivery ${deliveryCount}), retrying in ${delayMs} ms: ${reason}`,
      );
      eventMetrics.consumed.inc({ type, outcome: 'retried' });
      message.nak(delayMs);
    }
  }

  /** Keeps the event in the dead-letter table; false when even that failed (the event is retried instead). */
  private async park(subscription: Subscription, message: JsMsg, envelope: EventEnvelope, error: unknown) {
    try {
      await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(DeadLetter)
        .values({
          eventId: envelope.id,
          consumer: subscription.durable,
          subject: subscription.event.subject,
          envelope: envelope as never,
          error: String((error as Error)?.message ?? error).slice(0, 2_000),
          deliveries: message.info.deliveryCount,
        })
        .orUpdate(['error', 'deliveries', 'parked_at'], ['event_id', 'consumer'])
        .execute();
      return true;
    } catch {
      return false;
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
