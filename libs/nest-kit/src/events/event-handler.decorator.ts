import type { EventDefinition, EventEnvelope, EventPayload } from '@likeness/contracts';
import { SetMetadata } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export const EVENT_HANDLER_METADATA = Symbol('EVENT_HANDLER_METADATA');

export interface EventContext {
  envelope: EventEnvelope;
  /** The transaction that also records the event as processed: write through it. */
  manager: EntityManager;
  /** 1 on the first delivery. */
  deliveryCount: number;
}

export interface EventHandlerOptions {
  /** Failed attempts before the event is parked in the dead-letter table (default EVENT_MAX_ATTEMPTS). */
  maxDeliver?: number;
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
  const metadata: EventHandlerMetadata = { event, ...options };
  return <M extends (payload: EventPayload<E>, context: EventContext) => Promise<void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ) => {
    SetMetadata(EVENT_HANDLER_METADATA, metadata)(target, key, descriptor);
  };
}
