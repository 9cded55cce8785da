import { setTimeout as sleep } from 'node:timers/promises';
import { eventEnvelopeSchema } from '@likeness/contracts';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JsMsg,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
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
import { eventMetrics } from '../health/metrics.js';
import { runWithCorrelation } from '../logging/correlation.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespaced } from '../messaging/nats.js';
import { EVENT_HANDLER_METADATA, type EventContext, type EventHandlerMetadata } from './event-handler.decorator.js';
import { InboxMessage } from './inbox-message.entity.js';
import { ensureEventsStream } from './streams.js';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

const ACK_WAIT_MS = 30_000;

interface Subscription extends EventHandlerMetadata {
  durable: string;
  handle: (payload: unknown, context: EventContext) => Promise<void>;
  messages?: ConsumerMessages;
  loop?: Promise<void>;
}

/**
 * Runs every `@EventHandler` of the app on its own durable pull consumer: explicit ack,
 * redelivery with back-off after a failure, and a bounded number of deliveries.
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
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[method];
        if (typeof handler !== 'function') continue;
        const metadata = this.reflector.get<EventHandlerMetadata | undefined>(EVENT_HANDLER_METADATA, handler);
        if (!metadata) continue;
        const { event } = metadata;
        this.subscriptions.push({
          ...metadata,
          durable: `${this.service}-${event.service}-${event.name}-v${event.version}`,
          handle: (payload, context) => handler.call(instance, payload, context) as Promise<void>,
        });
      }
    }
    for (const subscription of this.subscriptions) subscription.loop = this.run(subscription);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const subscription of this.subscriptions) subscription.messages?.stop();
    await Promise.all(this.subscriptions.map((subscription) => subscription.loop));
  }

  private async run(subscription: Subscription): Promise<void> {
    let failures = 0;
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
        failures = 0;
        for await (const message of subscription.messages) {
          await this.process(subscription, message);
          if (this.stopping) break;
        }
      } catch (error) {
        if (this.stopping) break;
        failures += 1;
        if (failures === 1 || failures % 20 === 0) {
          this.logger.warn(`Consumer ${subscription.durable} waiting for the broker: ${(error as Error).message}`);
        }
        await sleep(Math.min(5_000, 250 * 2 ** failures));
      }
    }
  }

  private async ensureConsumer(subscription: Subscription): Promise<string> {
    const jsm = await jetstreamManager(this.nats);
    const stream = await ensureEventsStream(jsm, this.settings);
    const config = {
      durable_name: subscription.durable,
      filter_subject: namespaced(this.settings, subscription.event.subject),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: subscription.maxDeliver,
    };
    try {
      await jsm.consumers.info(stream, subscription.durable);
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.status !== 404) throw error;
      await jsm.consumers.add(stream, config);
    }
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
      if (deliveryCount >= subscription.maxDeliver) {
        this.logger.error(
          `Giving up on ${type} event ${envelope.data.id} after ${deliveryCount} deliveries: ${reason}`,
        );
        eventMetrics.consumed.inc({ type, outcome: 'failed' });
        message.term();
      } else {
        this.logger.warn(`${type} event ${envelope.data.id} failed (delivery ${deliveryCount}), will retry: ${reason}`);
        eventMetrics.consumed.inc({ type, outcome: 'retried' });
        message.nak(Math.min(60_000, 500 * 2 ** deliveryCount));
      }
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
