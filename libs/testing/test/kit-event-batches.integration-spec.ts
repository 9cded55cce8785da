import { randomUUID } from 'node:crypto';
import { AuthEvents, type EventEnvelope, type EventPayload } from '@likeness/contracts';
import {
  type EventContext,
  EventHandler,
  ServiceKitModule,
  createDeadLetterTable,
  createMessagingTables,
  createServiceApp,
  defineServiceDatabase,
  loadConfig,
  namespaced,
  runMigrations,
  serviceConfigSchema,
} from '@likeness/nest-kit';
import { createTestServiceEnvironment, waitFor } from '../src/index.js';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';

class BatchTestInit1700000000000 implements MigrationInterface {
  name = 'BatchTestInit1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'kitbatch');
    await createDeadLetterTable(queryRunner, 'kitbatch');
    // One row per event applied, in the order applied; one per transaction that applied any.
    await queryRunner.query(
      `CREATE TABLE "kitbatch"."applied" ("id" SERIAL PRIMARY KEY, "user_id" integer NOT NULL, "tx" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE TABLE "kitbatch"."commits" ("tx" bigint PRIMARY KEY, "events" integer NOT NULL)`);
  }
  async down(): Promise<void> {}
}

const database = defineServiceDatabase({ schema: 'kitbatch', entities: [], migrations: [BatchTestInit1700000000000] });
/** Handler calls per user id, committed or not. */
const calls = new Map<number, number>();
/** User ids whose event fails on its first call / on every call. */
const failFirst = new Set<number>();
const poison = new Set<number>();

@Injectable()
class ErasureListener {
  @EventHandler(AuthEvents.UserDeleted, { batch: { max: 50 }, maxDeliver: 3 })
  async erase(event: EventPayload<typeof AuthEvents.UserDeleted>, context: EventContext): Promise<void> {
    const seen = (calls.get(event.userId) ?? 0) + 1;
    calls.set(event.userId, seen);
    const [{ tx }] = await context.manager.query(`SELECT txid_current()::bigint AS tx`);
    await context.manager.query(`INSERT INTO kitbatch.applied (user_id, tx) VALUES ($1, $2)`, [event.userId, tx]);
    // Once per transaction: the events it applied, and how many (they share one tally).
    const tally = context.shared('tally', () => ({ events: 0 }));
    tally.events += 1;
    context.beforeCommit('tally', async () => {
      await context.manager.query(`INSERT INTO kitbatch.commits (tx, events) VALUES ($1, $2)`, [tx, tally.events]);
    });
    if (failFirst.has(event.userId) && seen === 1) throw new Error('transient failure');
    if (poison.has(event.userId)) throw new Error('poison event');
  }
}

@Module({})
class BatchTestModule {
  static forRoot(config: ReturnType<typeof loadConfig<typeof serviceConfigSchema>>): DynamicModule {
    return {
      module: BatchTestModule,
      imports: [ServiceKitModule.forRoot({ service: 'reporting', config, database: database(config) })],
      providers: [ErasureListener],
    };
  }
}

const deletion = (userId: number): EventEnvelope => ({
  id: randomUUID(),
  type: 'auth.UserDeleted',
  version: 1,
  occurredAt: new Date().toISOString(),
  payload: { userId, deletedAt: new Date().toISOString() },
});

describe('event handlers that apply a batch of events in one transaction', () => {
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let config: ReturnType<typeof loadConfig<typeof serviceConfigSchema>>;
  let app: NestFastifyApplication | undefined;
  let db: pg.Client;

  const start = async () => {
    app = await createServiceApp(
      { service: 'reporting', configSchema: serviceConfigSchema, database, module: (c) => BatchTestModule.forRoot(c) },
      config,
    );
  };
  /** Publishes while the app is stopped, so the events wait in the stream and come as a backlog. */
  const publishBacklog = async (envelopes: EventEnvelope[]) => {
    await app?.close();
    app = undefined;
    const nc = await connect({ servers: env.natsUrl });
    const js = jetstream(nc);
    const subject = namespaced({ namespace: env.namespace }, AuthEvents.UserDeleted.subject);
    for (const envelope of envelopes) await js.publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
    await nc.close();
    await start();
  };
  const applied = async (userIds: number[]) =>
    (
      await db.query<{ user_id: number; tx: string }>(
        `SELECT user_id, tx FROM kitbatch.applied WHERE user_id = ANY($1::int[]) ORDER BY id`,
        [userIds],
      )
    ).rows;
  const commits = async (txs: string[]) =>
    (
      await db.query<{ tx: string; events: number }>(
        `SELECT tx, events FROM kitbatch.commits WHERE tx = ANY($1::bigint[])`,
        [txs],
      )
    ).rows;
  const parked = async () =>
    (
      await db.query<{ user_id: number; deliveries: number; error: string }>(
        `SELECT (envelope->'payload'->>'userId')::int AS user_id, deliveries, error FROM kitbatch.dead_letters`,
      )
    ).rows;

  beforeAll(async () => {
    env = await createTestServiceEnvironment('event-batches');
    config = loadConfig(serviceConfigSchema, { ...env.env, EVENT_RETRY_MAX_MS: '500' });
    await runMigrations(database(config));
    await start();
    db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
    await env?.database.drop();
  });

  it('should apply a backlog in few transactions, each event once and in order, with the per-transaction work once', async () => {
    const userIds = Array.from({ length: 40 }, (_, index) => 100 + index);
    await publishBacklog(userIds.map(deletion));
    await waitFor(async () => (await applied(userIds)).length === userIds.length, { what: 'the backlog applied' });

    const rows = await applied(userIds);
    expect(rows.map((row) => row.user_id)).toEqual(userIds);
    const txs = [...new Set(rows.map((row) => row.tx))];
    expect(txs.length).toBeLessThan(userIds.length);
    // The per-transaction work ran once in each transaction, after all of its events.
    const done = await commits(txs);
    expect(done).toHaveLength(txs.length);
    for (const { tx, events } of done) expect(events).toBe(rows.filter((row) => row.tx === tx).length);
  });

  it('should skip duplicates, in the same batch or already applied', async () => {
    const first = deletion(200);
    const second = deletion(201);
    await publishBacklog([first, first, second, first, deletion(202)]);
    await waitFor(async () => (await applied([202])).length === 1, { what: 'the last event' });
    await publishBacklog([second, deletion(203)]);
    await waitFor(async () => (await applied([203])).length === 1, { what: 'the event after the repeat' });
    expect((await applied([200, 201, 202, 203])).map((row) => row.user_id)).toEqual([200, 201, 202, 203]);
    expect(calls.get(200)).toBe(1);
    expect(calls.get(201)).toBe(1);
  });

  it('should retry a failing event of a batch alone while its neighbours commit, in order', async () => {
    failFirst.add(303);
    const userIds = [300, 301, 302, 303, 304, 305];
    await publishBacklog(userIds.map(deletion));
    await waitFor(async () => (await applied(userIds)).length === userIds.length, {
      timeoutMs: 15_000,
      what: 'every event applied',
    });
    expect((await applied(userIds)).map((row) => row.user_id)).toEqual(userIds);
    expect(calls.get(303)).toBe(2);
    expect(await parked()).toEqual([]);
  });

  it('should park a poison event alone, and apply the rest of its batch once', async () => {
    poison.add(402);
    const userIds = [400, 401, 402, 403, 404];
    await publishBacklog(userIds.map(deletion));
    await waitFor(async () => (await parked()).length === 1, { timeoutMs: 30_000, what: 'the poison event parked' });
    expect(await parked()).toEqual([{ user_id: 402, deliveries: 3, error: 'poison event' }]);
    expect((await applied(userIds)).map((row) => row.user_id)).toEqual([400, 401, 403, 404]);
    for (const userId of [400, 401, 403, 404]) expect(calls.get(userId)).toBeLessThanOrEqual(2);

    // The consumer goes on with the next events.
    await publishBacklog([deletion(405)]);
    await waitFor(async () => (await applied([405])).length === 1, { what: 'the next event' });
  });
});
