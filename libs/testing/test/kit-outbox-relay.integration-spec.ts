import { randomUUID } from 'node:crypto';
import { AuthEvents, type EventEnvelope, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler, metricsRegistry } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { type TestServiceEnvironment, waitFor } from '../src/index.js';
import { createKitEnvironment, startKitApp } from './kit-app.js';

/** Usernames in the order their events were handled. */
const handled: string[] = [];

@Injectable()
class RegistrationListener {
  @EventHandler(AuthEvents.UserRegistered)
  async onRegistered(event: EventPayload<typeof AuthEvents.UserRegistered>, _context: EventContext): Promise<void> {
    handled.push(event.username);
  }
}

function registration(userId: number, username: string): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'auth.UserRegistered',
    version: 1,
    occurredAt: new Date().toISOString(),
    payload: {
      userId,
      username,
      email: `${username}@example.com`,
      role: 'user',
      registeredAt: new Date().toISOString(),
    },
  };
}

describe('the outbox relay', () => {
  let env: TestServiceEnvironment;
  let app: NestFastifyApplication;
  let db: pg.Client;

  /** Commits outbox rows in one transaction, oldest first, as producers would, and wakes the relay. */
  async function commitRows(rows: { envelope: EventEnvelope; subject?: string }[]): Promise<void> {
    await db.query('BEGIN');
    for (const [index, { envelope, subject }] of rows.entries()) {
      await db.query(
        `INSERT INTO kit.outbox (id, subject, envelope, created_at)
         VALUES ($1, $2, $3, now() + $4 * interval '1 microsecond')`,
        [envelope.id, subject ?? AuthEvents.UserRegistered.subject, envelope, index],
      );
    }
    await db.query(`SELECT pg_notify('kit_outbox', '1')`);
    await db.query('COMMIT');
  }

  const unpublished = async () =>
    (await db.query<{ id: string }>(`SELECT id FROM kit.outbox WHERE published_at IS NULL`)).rows.map((row) => row.id);

  beforeAll(async () => {
    env = await createKitEnvironment('relay');
    app = await startKitApp(env, [RegistrationListener]);
    db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
    await env?.database.drop();
  });

  const publishedOfType = async (type: string) =>
    (await metricsRegistry.getSingleMetric('likeness_outbox_published_total')?.get())?.values.find(
      (value) => value.labels['type'] === type,
    )?.value ?? 0;

  it('should publish a backlog bigger than a batch once each, in the order it was written', async () => {
    const countedBefore = await publishedOfType('auth.UserRegistered');
    const usernames = Array.from({ length: 600 }, (_, index) => `burst_${index}`);
    await commitRows(usernames.map((username, index) => ({ envelope: registration(1_000 + index, username) })));
    await waitFor(async () => handled.filter((name) => name.startsWith('burst_')).length >= usernames.length, {
      what: 'the whole backlog to be handled',
    });
    expect(handled.filter((name) => name.startsWith('burst_'))).toEqual(usernames);
    expect(await unpublished()).toEqual([]);
    // Counted by type once each, for the on-call dashboards (e.g. the training failure ratio).
    expect((await publishedOfType('auth.UserRegistered')) - countedBefore).toBe(usernames.length);
  });

  it('should publish the rest of a batch when one publish fails, and retry the failed row until it goes', async () => {
    // The oldest row's subject is one no stream covers: its publish is refused, its neighbours' are not.
    const stuck = registration(2_001, 'stuck');
    await commitRows([
      { envelope: stuck, subject: 'nowhere.auth.UserRegistered.v1' },
      { envelope: registration(2_002, 'neighbour_1') },
      { envelope: registration(2_003, 'neighbour_2') },
    ]);
    await waitFor(async () => handled.includes('neighbour_1') && handled.includes('neighbour_2'), {
      what: 'the neighbours to be handled',
    });
    expect(await unpublished()).toEqual([stuck.id]);
    expect(handled).not.toContain('stuck');

    // Once the row can be published, a retry (no new commit wakes the relay) publishes it.
    await db.query(`UPDATE kit.outbox SET subject = $2 WHERE id = $1`, [stuck.id, AuthEvents.UserRegistered.subject]);
    await waitFor(async () => handled.includes('stuck'), { timeoutMs: 20_000, what: 'the failed row to be retried' });
    expect(await unpublished()).toEqual([]);
    expect(handled.filter((name) => name === 'stuck' || name.startsWith('neighbour_')).sort()).toEqual([
      'neighbour_1',
      'neighbour_2',
      'stuck',
    ]);
  });
});
