import { setImmediate as setImmediateValue, setTimeout as sleep } from 'node:timers/promises';
import { type EventEnvelope, eventConsumerName, eventEnvelopeSchema } from '@likeness/contracts';
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
import { DataSource, type EntityManager } from 'typeorm';
import { discoverMethods } from '../bootstrap/discover-methods.js';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { eventMetrics } from '../health/metrics.js';
import { runWithCorrelation } from '../logging/correlation.js';
import { contextFromCarrier, inMessagingSpan } from '../tracing/trace-context.js';
import { ensureConsumer } from '../messaging/jetstream-setup.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '../messaging/nats.js';
import { FailureStreak, backoffDelay } from '../resilience/backoff.js';
import { DeadLetter } from './dead-letter.entity.js';
import {
  EVENT_HANDLER_METADATA,
  type EventContext,
  type EventHandlerMetadata,
  TransactionScope,
} from './event-handler.decorator.js';
import { InboxMessage } from './inbox-message.entity.js';
import { ensureEventsStream } from './streams.js';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

const ACK_WAIT_MS = 30_000;
const MAX_ACK_PENDING = 1_000;
/** Messages a consumer keeps delivered ahead of its handler (a batching handler: its batch size). */
const BUFFERED_MESSAGES = 16;

interface Subscription extends EventHandlerMetadata {
  durable: string;
  /** Failed attempts before the event is parked. */
  attempts: number;
  handle: (payload: unknown, context: EventContext) => Promise<void>;
  messages?: ConsumerMessages;
  loop?: Promise<void>;
}

/** A delivered message whose envelope and payload are valid. */
interface Delivery {
  message: JsMsg;
  envelope: EventEnvelope;
  payload: unknown;
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
        durable: eventConsumerName(this.service, event),
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
        const buffered = Math.max(BUFFERED_MESSAGES, subscription.batch?.max ?? 0);
        subscription.messages = await consumer.consume({ max_messages: buffered });
        // Shutdown began while this consumer was still being set up: nobody else will stop it.
        if (this.stopping) {
          subscription.messages.stop();
          break;
        }
        streak.reset();
        if (subscription.batch) {
          await this.consumeBatches(subscription, subscription.messages, subscription.batch.max);
        } else {
          for await (const message of subscription.messages) {
            const delivery = this.parse(subscription, message);
            if (delivery) await this.process(subscription, delivery);
            if (this.stopping) break;
          }
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

  /** Each time: the next message, and whatever else was already delivered, up to `max`. */
  private async consumeBatches(subscription: Subscription, messages: ConsumerMessages, max: number): Promise<void> {
    const reader = new DeliveredMessages(messages);
    for (;;) {
      const batch = await reader.take(max);
      if (batch.length === 0) return;
      const deliveries = batch.flatMap((message) => this.parse(subscription, message) ?? []);
      const [only] = deliveries;
      if (deliveries.length === 1 && only) await this.process(subscription, only);
      else if (deliveries.length > 1) await this.processBatch(subscription, deliveries);
      if (this.stopping) return;
    }
  }

  /** The message's envelope and payload; a malformed one is dropped (it will not get better by redelivery). */
  private parse(subscription: Subscription, message: JsMsg): Delivery | undefined {
    const envelope = eventEnvelopeSchema.safeParse(safeJson(message));
    const payload = envelope.success ? subscription.event.payload.safeParse(envelope.data.payload) : undefined;
    if (envelope.success && payload?.success) return { message, envelope: envelope.data, payload: payload.data };
    this.logger.error(`Dropping malformed ${eventType(subscription)} event ${message.seq} for ${subscription.durable}`);
    eventMetrics.consumed.inc({ type: eventType(subscription), outcome: 'malformed' });
    message.term();
    return undefined;
  }

  /**
   * Several events in one transaction: their inbox rows in one statement, the handler for each new
   * one in delivery order, one commit, then the acks. If any of it fails, each event is processed
   * on its own, so only the failing one is retried (and in the end parked).
   */
  private async processBatch(subscription: Subscription, deliveries: Delivery[]): Promise<void> {
    let handled: Set<Delivery>;
    try {
      handled = await this.dataSource.transaction(async (manager) => {
        const ids = [...new Set(deliveries.map((delivery) => delivery.envelope.id))];
        const inserted = await manager
          .createQueryBuilder()
          .insert()
          .into(InboxMessage)
          .values(ids.map((eventId) => ({ eventId, consumer: subscription.durable })))
          .orIgnore()
          .returning(['eventId'])
          .execute();
        const fresh = new Set((inserted.raw as { event_id: string }[]).map((row) => row.event_id));
        const scope = new TransactionScope();
        const applied = new Set<Delivery>();
        for (const delivery of deliveries) {
          // A new event once, even when the batch holds it twice.
          if (!fresh.delete(delivery.envelope.id)) continue;
          await this.handle(subscription, delivery, manager, scope);
          applied.add(delivery);
        }
        await scope.complete();
        return applied;
      });
    } catch (error) {
      this.logger.warn(
        `A batch of ${deliveries.length} ${eventType(subscription)} events for ${subscription.durable} failed, ` +
          `applying them one at a time: ${(error as Error).message}`,
      );
      for (const delivery of deliveries) await this.process(subscription, delivery);
      return;
    }
    for (const delivery of deliveries) {
      delivery.message.ack();
      eventMetrics.consumed.inc({
        type: eventType(subscription),
        outcome: handled.has(delivery) ? 'handled' : 'duplicate',
      });
    }
  }

  private handle(subscription: Subscription, delivery: Delivery, manager: EntityManager, scope: TransactionScope) {
    const { envelope, payload, message } = delivery;
    const context: EventContext = {
      envelope,
      manager,
      deliveryCount: message.info.deliveryCount,
      shared: (key, create) => scope.shared(key, create),
      beforeCommit: (key, work) => scope.beforeCommit(key, work),
    };
    return inMessagingSpan(
      `event ${envelope.type}`,
      'consumer',
      contextFromCarrier(envelope.trace),
      `${subscription.durable} ${envelope.type}`,
      () => runWithCorrelation(envelope.correlationId, () => subscription.handle(payload, context)),
    );
  }

  private async process(subscription: Subscription, delivery: Delivery): Promise<void> {
    const type = eventType(subscription);
    const { message, envelope } = delivery;
    const deliveryCount = message.info.deliveryCount;
    try {
      const handled = await this.dataSource.transaction(async (manager) => {
        const inserted = await manager
          .createQueryBuilder()
          .insert()
          .into(InboxMessage)
          .values({ eventId: envelope.id, consumer: subscription.durable })
          .orIgnore()
          .returning(['eventId'])
          .execute();
        if (inserted.raw.length === 0) return false;
        const scope = new TransactionScope();
        await this.handle(subscription, delivery, manager, scope);
        await scope.complete();
        return true;
      });
      message.ack();
      eventMetrics.consumed.inc({ type, outcome: handled ? 'handled' : 'duplicate' });
    } catch (error) {
      const reason = (error as Error).message;
      if (deliveryCount >= subscription.attempts && (await this.park(subscription, message, envelope, error))) {
        this.logger.error(
          `Parked ${type} event ${envelope.id} for ${subscription.durable} after ${deliveryCount} failed deliveries ` +
            `(replay it with \`node dist/main.js replay-dead-letters\` once the cause is fixed): ${reason}`,
        );
        eventMetrics.consumed.inc({ type, outcome: 'dead_lettered' });
        message.ack();
        return;
      }
      const delayMs = backoffDelay({ initialMs: 1_000, maxMs: this.config.EVENT_RETRY_MAX_MS }, deliveryCount);
      this.logger.warn(
        `${type} event ${envelope.id} failed (delivery ${deliveryCount}), retrying in ${delayMs} ms: ${reason}`,
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

function eventType(subscription: Subscription): string {
  return `${subscription.event.service}.${subscription.event.name}`;
}

const NOTHING_YET = Symbol('NOTHING_YET');

/**
 * Reads a consumer's messages in batches: waits for one, then takes those already delivered into
 * the consumer's buffer, never waiting for more (a batch is as big as the backlog, not a quota).
 */
class DeliveredMessages {
  private readonly iterator: AsyncIterator<JsMsg>;
  /** A read that did not answer at once: its message comes first next time. */
  private pending?: Promise<IteratorResult<JsMsg>>;
  private done = false;

  constructor(messages: ConsumerMessages) {
    this.iterator = messages[Symbol.asyncIterator]();
  }

  /** Empty once the messages ended. */
  async take(max: number): Promise<JsMsg[]> {
    const batch: JsMsg[] = [];
    while (!this.done && batch.length < max) {
      const next = (this.pending ??= this.iterator.next());
      // A buffered message answers within microtasks; the timer's turn comes after those.
      const result = batch.length === 0 ? await next : await Promise.race([next, setImmediateValue(NOTHING_YET)]);
      if (result === NOTHING_YET) break;
      this.pending = undefined;
      if (result.done) this.done = true;
      else batch.push(result.value);
    }
    return batch;
  }
}

function safeJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
