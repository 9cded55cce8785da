import type { EventDefinition, EventEnvelope, EventPayload } from '@likeness/contracts';
import { SetMetadata } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export const EVENT_HANDLER_METADATA = Symbol('EVENT_HANDLER_METADATA');

/**
 * What the handlers of one transaction share: a batch applies several events in one transaction,
 * and work that should happen once per transaction (moving counters, say) goes through here.
 */
export interface TransactionHooks {
  /** The value kept under `key` for this transaction, made by `create` on first use. */
  shared<T>(key: string, create: () => T): T;
  /**
   * Runs `work` once, right before the transaction commits, after every event of it was handled;
   * registering the same key again in the transaction changes nothing. A failure rolls it back.
   */
  beforeCommit(key: string, work: () => Promise<void>): void;
}

export interface EventContext extends TransactionHooks {
  envelope: EventEnvelope;
  /** The transaction that also records the event as processed: write through it. */
  manager: EntityManager;
  /** 1 on the first delivery. */
  deliveryCount: number;
}

export interface EventBatchOptions {
  /** The most events applied in one transaction. */
  max: number;
}

export interface EventHandlerOptions {
  /** Failed attempts before the event is parked in the dead-letter table (default EVENT_MAX_ATTEMPTS). */
  maxDeliver?: number;
  /**
   * Applies the events already delivered (at most `max`, never waiting for more) in one
   * transaction: their inbox rows in one statement, the handler for each new one in delivery
   * order with the same `manager`, one commit, then the acks. When that transaction fails, the
   * events are applied one at a time, each with its own retries and parking, so one bad event
   * holds back none of its neighbours. Without it, every event has a transaction of its own.
   */
  batch?: EventBatchOptions;
}

export interface EventHandlerMetadata extends EventHandlerOptions {
  event: EventDefinition;
}

/**
 * Subscribes a provider method to a domain event through a durable JetStream consumer.
 * The method runs inside a transaction with the inbox row, so it takes effect exactly once
 * however often the event is delivered.
 */
export function EventHandler<E extends EventDefinition>(event: E, options: EventHandlerOptions = {}) {
  if (options.batch && !(Number.isInteger(options.batch.max) && options.batch.max >= 1)) {
    throw new Error(`@EventHandler(${event.name}): batch.max must be a whole number of at least 1`);
  }
  const metadata: EventHandlerMetadata = { event, ...options };
  return <M extends (payload: EventPayload<E>, context: EventContext) => Promise<void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ) => {
    SetMetadata(EVENT_HANDLER_METADATA, metadata)(target, key, descriptor);
  };
}

/** The hooks of one event-handling transaction (the consumer runs them before it commits). */
export class TransactionScope implements TransactionHooks {
  private readonly values = new Map<string, unknown>();
  private readonly hooks = new Map<string, () => Promise<void>>();

  shared<T>(key: string, create: () => T): T {
    if (!this.values.has(key)) this.values.set(key, create());
    return this.values.get(key) as T;
  }

  beforeCommit(key: string, work: () => Promise<void>): void {
    if (!this.hooks.has(key)) this.hooks.set(key, work);
  }

  /** Runs the registered work in the order it was registered (work may register more: a Map's iteration sees it). */
  async complete(): Promise<void> {
    for (const work of this.hooks.values()) await work();
  }
}
