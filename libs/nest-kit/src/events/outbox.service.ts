import { randomUUID } from 'node:crypto';
import { type EventDefinition, type EventEnvelope, type JobDefinition, jobMessageSubject } from '@likeness/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { currentTraceCarrier } from '../tracing/trace-context.js';
import { currentCorrelationId } from '../logging/correlation.js';
import { OutboxMessage } from './outbox-message.entity.js';
import { OUTBOX_CHANNEL, OutboxRelay } from './outbox-relay.js';

/**
 * When an event happened. By default, when it is recorded; a producer that stores the same moment
 * on its own row (a job's created_at, a payment's succeeded_at) passes that very Date, so a reader
 * that builds from the events and one that builds from the rows see the same time, to the
 * millisecond (write the Date on the row explicitly: `now()` keeps microseconds a Date has not).
 */
export interface OutboxEventOptions {
  occurredAt?: Date;
}

/**
 * Records a domain event in the caller's transaction. The relay publishes it once the
 * transaction commits (Postgres delivers the NOTIFY only then); a rollback takes it back.
 */
@Injectable()
export class OutboxService {
  constructor(
    @Inject(OUTBOX_CHANNEL) private readonly channel: string,
    private readonly relay: OutboxRelay,
  ) {}

  async add<E extends EventDefinition>(
    manager: EntityManager,
    event: E,
    payload: z.input<E['payload']>,
    options: OutboxEventOptions = {},
  ): Promise<string> {
    const ids = await this.addMany(manager, event, [payload], options);
    return ids.join();
  }

  /**
   * Queues a job (a `defineJob` definition) in the caller's transaction, sent by the relay like an
   * event: the work exists exactly when the change that asks for it commits. `lane`: one of the
   * job's lanes (see JobLanes); the standard lane without.
   */
  async enqueue<J extends JobDefinition>(
    manager: EntityManager,
    job: J,
    payload: z.input<J['payload']>,
    options: { lane?: string } = {},
  ): Promise<string> {
    const correlationId = currentCorrelationId();
    const trace = currentTraceCarrier();
    const parsed = job.payload.parse(payload);
    const envelope: EventEnvelope = {
      id: randomUUID(),
      type: `${job.queue}.${job.name}`,
      version: job.version,
      occurredAt: new Date().toISOString(),
      ...(correlationId ? { correlationId } : {}),
      ...(trace ? { trace } : {}),
      payload: parsed,
    };
    const subject = jobMessageSubject(job, job.key?.(parsed) ?? envelope.id, options.lane);
    await manager.insert(OutboxMessage, { id: envelope.id, subject, envelope: envelope as never });
    if (!this.relay.wouldSeeRowsAddedNow()) await manager.query('SELECT pg_notify($1, $2)', [this.channel, '1']);
    return envelope.id;
  }

  /** Several events of one kind in one statement (a batch of changes announces them together). */
  async addMany<E extends EventDefinition>(
    manager: EntityManager,
    event: E,
    payloads: readonly z.input<E['payload']>[],
    options: OutboxEventOptions = {},
  ): Promise<string[]> {
    if (payloads.length === 0) return [];
    const correlationId = currentCorrelationId();
    const trace = currentTraceCarrier();
    const occurredAt = (options.occurredAt ?? new Date()).toISOString();
    const envelopes: EventEnvelope[] = payloads.map((payload) => ({
      id: randomUUID(),
      type: `${event.service}.${event.name}`,
      version: event.version,
      occurredAt,
      ...(correlationId ? { correlationId } : {}),
      ...(trace ? { trace } : {}),
      payload: event.payload.parse(payload),
    }));
    // TypeORM's deep-partial type cannot express a jsonb column holding `unknown`.
    await manager.insert(
      OutboxMessage,
      envelopes.map((envelope) => ({ id: envelope.id, subject: event.subject, envelope: envelope as never })),
    );
    // NOTIFY serialises commits on a global lock; a relay that is draining picks these rows up anyway.
    if (!this.relay.wouldSeeRowsAddedNow())
      await manager.query('SELECT pg_notify($1, $2)', [this.channel, String(envelopes.length)]);
    return envelopes.map((envelope) => envelope.id);
  }
}
