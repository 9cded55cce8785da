import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventPayload } from '@likeness/contracts';
import { namespaced } from '@likeness/nest-kit';
import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import type pg from 'pg';
import { waitFor } from '@likeness/devstack';

export interface PublishOptions {
  /** The envelope's id (default: a new one): the same id again is the same event. */
  id?: string;
  /** Copies published under different message ids, as redeliveries past the duplicate window arrive. */
  copies?: number;
  /** The envelope's occurredAt (default: now), as a producer that passes its own Date sets it. */
  occurredAt?: Date;
}

/** Publishes domain events onto JetStream as a service's outbox relay would, in a test's namespace. */
export interface TestEventPublisher {
  publish<E extends EventDefinition>(event: E, payload: EventPayload<E>, options?: PublishOptions): Promise<string>;
  close(): Promise<void>;
}

export async function connectEventPublisher(natsUrl: string, namespace: string): Promise<TestEventPublisher> {
  const connection: NatsConnection = await connect({ servers: natsUrl });
  return {
    async publish(event, payload, { id = randomUUID(), copies = 1, occurredAt = new Date() } = {}) {
      const envelope = JSON.stringify({
        id,
        type: `${event.service}.${event.name}`,
        version: event.version,
        occurredAt: occurredAt.toISOString(),
        payload,
      });
      const subject = namespaced({ namespace }, event.subject);
      for (let copy = 0; copy < copies; copy += 1) {
        await jetstream(connection).publish(subject, envelope, { msgID: randomUUID() });
      }
      return id;
    },
    close: () => connection.close(),
  };
}

/** Waits until a service's consumers recorded the event in its inbox (`<schema>.inbox`) this many times. */
export async function waitForInbox(db: pg.Pool, schema: string, eventId: string, consumers = 1): Promise<void> {
  await waitFor(
    async () => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${schema}".inbox WHERE event_id = $1`,
        [eventId],
      );
      return (rows[0]?.n ?? 0) >= consumers;
    },
    { what: `event ${eventId} handled by ${schema}` },
  );
}
