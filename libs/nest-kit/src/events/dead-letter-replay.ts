import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { CORRELATION_HEADER } from '../logging/correlation.js';
import { type NatsSettings, connectNats, namespaced } from '../messaging/nats.js';
import { DeadLetter } from './dead-letter.entity.js';

export interface DeadLetterFilter {
  /** One consumer's parked events (its durable name, e.g. `billing-generation-GenerationCompleted-v1`). */
  consumer?: string;
  /** One event. */
  eventId?: string;
  /** List what would be replayed, and change nothing. */
  dryRun?: boolean;
}

export interface ReplayedEvent {
  eventId: string;
  consumer: string;
  subject: string;
  deliveries: number;
  error: string;
  parkedAt: string;
}

/**
 * Publishes parked events to the stream again (under a fresh message id, so JetStream does not
 * drop them as duplicates) and takes them off the dead-letter table. Consumers that handled an
 * event before see it in their inbox and skip it; the one that parked it tries again from its
 * first attempt.
 */
export async function replayDeadLetters(
  database: DataSourceOptions,
  nats: NatsSettings,
  filter: DeadLetterFilter = {},
): Promise<ReplayedEvent[]> {
  const dataSource = await new DataSource(database).initialize();
  try {
    const query = dataSource.getRepository(DeadLetter).createQueryBuilder('letter').orderBy('letter.parkedAt', 'ASC');
    if (filter.consumer) query.andWhere('letter.consumer = :consumer', { consumer: filter.consumer });
    if (filter.eventId) query.andWhere('letter.eventId = :eventId', { eventId: filter.eventId });
    const letters = await query.getMany();
    const replayed = letters.map((letter) => ({
      eventId: letter.eventId,
      consumer: letter.consumer,
      subject: letter.subject,
      deliveries: letter.deliveries,
      error: letter.error,
      parkedAt: letter.parkedAt.toISOString(),
    }));
    if (filter.dryRun || letters.length === 0) return replayed;
    const connection = await connectNats({ ...nats, name: `${nats.name}-replay` });
    try {
      const js = jetstream(connection);
      for (const letter of letters) {
        const messageHeaders = headers();
        const correlationId = letter.envelope.correlationId;
        if (typeof correlationId === 'string') messageHeaders.set(CORRELATION_HEADER, correlationId);
        await js.publish(namespaced(nats, letter.subject), JSON.stringify(letter.envelope), {
          msgID: `${letter.eventId}:replay:${randomUUID()}`,
          headers: messageHeaders,
        });
        await dataSource.getRepository(DeadLetter).delete({ eventId: letter.eventId, consumer: letter.consumer });
      }
    } finally {
      await connection.drain();
    }
    return replayed;
  } finally {
    await dataSource.destroy();
  }
}

/** `--consumer <name>`, `--event <id>`, `--dry-run` from a command line. */
export function parseDeadLetterArgs(args: readonly string[]): DeadLetterFilter {
  const valueOf = (flag: string) => {
    const index = args.indexOf(flag);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const consumer = valueOf('--consumer');
  const eventId = valueOf('--event');
  return {
    ...(consumer ? { consumer } : {}),
    ...(eventId ? { eventId } : {}),
    ...(args.includes('--dry-run') ? { dryRun: true } : {}),
  };
}
