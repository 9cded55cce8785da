import { z } from 'zod';

/**
 * A domain event published on JetStream. The subject carries the version, and a published
 * payload never changes in place: a new shape is a new version.
 */
export interface EventDefinition<
  TService extends string = string,
  TName extends string = string,
  TPayload extends z.ZodType = z.ZodType,
> {
  readonly service: TService;
  readonly name: TName;
  readonly version: number;
  readonly subject: `events.${TService}.${TName}.v${number}`;
  readonly payload: TPayload;
}

export function defineEvent<TService extends string, TName extends string, TPayload extends z.ZodType>(definition: {
  service: TService;
  name: TName;
  version: number;
  payload: TPayload;
}): EventDefinition<TService, TName, TPayload> {
  return {
    ...definition,
    subject: `events.${definition.service}.${definition.name}.v${definition.version}`,
  };
}

export type EventPayload<E extends EventDefinition> = z.output<E['payload']>;

/** The durable consumer through which `consumer` (a service) handles an event. */
export function eventConsumerName(consumer: string, event: EventDefinition): string {
  return `${consumer}-${event.service}-${event.name}-v${event.version}`;
}

/** The envelope every event travels in; `id` is also the JetStream `Nats-Msg-Id`. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime(),
  correlationId: z.string().optional(),
  /** The W3C trace context (traceparent, tracestate) of the change that raised it, when traced. */
  trace: z.record(z.string(), z.string()).optional(),
  payload: z.unknown(),
});
export type EventEnvelope<TPayload = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & {
  payload: TPayload;
};

/** The JetStream stream that holds every domain event (prefixed by a namespace in tests). */
export const EVENTS_STREAM = 'EVENTS';
export const EVENTS_SUBJECT_PREFIX = 'events';
