import { AuthEvents, type EventEnvelope, type EventPayload } from '@likeness/contracts';
import {
  type EventContext,
  EventHandler,
  OutboxService,
  ServiceKitModule,
  createDeadLetterTable,
  createMessagingTables,
  createServiceApp,
  defineServiceDatabase,
  loadConfig,
  namespaced,
  replayDeadLetters,
  runMigrations,
  serviceConfigSchema,
} from '@likeness/nest-kit';
import { createTestServiceEnvironment, waitFor } from '../src/index.js';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { Column, DataSource, Entity, type MigrationInterface, PrimaryGeneratedColumn, type QueryRunner } from 'typeorm';

@Entity({ name: 'greetings' })
class Greeting {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'greetings_pkey' })
  id!: number;

  @Column({ type: 'text' })
  username!: string;
}

class KitTestInit1700000000000 implements MigrationInterface {
  name = 'KitTestInit1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'kit');
    await createDeadLetterTable(queryRunner, 'kit');
    await queryRunner.query(
      `CREATE TABLE "kit"."greetings" ("id" SERIAL NOT NULL, "username" text NOT NULL, CONSTRAINT "greetings_pkey" PRIMARY KEY ("id"))`,
    );
  }
  async down(): Promise<void> {}
}

const database = defineServiceDatabase({ schema: 'kit', entities: [Greeting], migrations: [KitTestInit1700000000000] });
/** Deliveries seen per username, and which usernames fail on their first delivery. */
const deliveries = new Map<string, number>();
const failFirst = new Set<string>();
/** Usernames whose handling fails until they are taken out (an outage of whatever the handler needs). */
const outage = new Set<string>();

@Injectable()
class GreetingListener {
  @EventHandler(AuthEvents.UserRegistered, { maxDeliver: 3 })
  async greet(event: EventPayload<typeof AuthEvents.UserRegistered>, { manager }: EventContext): Promise<void> {
    const seen = (deliveries.get(event.username) ?? 0) + 1;
    deliveries.set(event.username, seen);
    await manager.insert(Greeting, { username: event.username });
    // Fails after writing: the write must roll back with the inbox row.
    if (failFirst.has(event.username) && seen === 1) throw new Error('transient failure');
    if (event.username === 'always_fails') throw new Error('permanent failure');
    if (outage.has(event.username)) throw new Error('the ledger is unreachable');
  }
}

@Injectable()
class Announcer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  announce(userId: number, username: string, options: { rollback?: boolean } = {}): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await this.outbox.add(manager, AuthEvents.UserRegistered, {
        userId,
        username,
        email: `${username}@example.com`,
        role: 'user',
        registeredAt: new Date().toISOString(),
      });
      if (options.rollback) throw new Error('changed my mind');
    });
  }
}

@Module({})
class KitTestModule {
  static forRoot(config: ReturnType<typeof loadConfig<typeof serviceConfigSchema>>): DynamicModule {
    return {
      module: KitTestModule,
      imports: [ServiceKitModule.forRoot({ service: 'reporting', config, database: database(config) })],
      providers: [GreetingListener, Announcer],
    };
  }
}

describe('outbox and idempotent consumers', () => {
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let app: NestFastifyApplication;
  let db: pg.Client;
  let config: ReturnType<typeof loadConfig<typeof serviceConfigSchema>>;
  const parked = async (username: string) =>
    (
      await db.query<{ consumer: string; deliveries: number; error: string }>(
        `SELECT consumer, deliveries, error FROM kit.dead_letters WHERE envelope->'payload'->>'username' = $1`,
        [username],
      )
    ).rows;

  const greetings = async (username: string) =>
    Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM kit.greetings WHERE username = $1`, [username])).rows[0]
        ?.n,
    );

  beforeAll(async () => {
    env = await createTestServiceEnvironment('events');
    // Retries a second apart at most, so many deliveries fit in a test.
    config = loadConfig(serviceConfigSchema, { ...env.env, EVENT_RETRY_MAX_MS: '500' });
    await runMigrations(database(config));
    app = await createServiceApp(
      { service: 'reporting', configSchema: serviceConfigSchema, database, module: (c) => KitTestModule.forRoot(c) },
      config,
    );
    db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
    await env?.database.drop();
  });

  it('should publish an event written in a committed transaction and handle it once', async () => {
    await app.get(Announcer).announce(1, 'ada');
    await waitFor(async () => (await greetings('ada')) === 1, { what: 'ada to be greeted' });
    expect(deliveries.get('ada')).toBe(1);
  });

  it('should never publish an event whose transaction rolled back', async () => {
    await expect(app.get(Announcer).announce(2, 'ghost', { rollback: true })).rejects.toThrow('changed my mind');
    await app.get(Announcer).announce(3, 'after_ghost');
    await waitFor(async () => (await greetings('after_ghost')) === 1, { what: 'the next event' });
    expect(await greetings('ghost')).toBe(0);
    expect(Number((await db.query(`SELECT count(*) AS n FROM kit.outbox`)).rows[0].n)).toBe(2);
  });

  it('should retry a failed handler without keeping its partial writes', async () => {
    failFirst.add('grace');
    await app.get(Announcer).announce(4, 'grace');
    await waitFor(async () => deliveries.get('grace') === 2, { timeoutMs: 15_000, what: 'the redelivery' });
    await waitFor(async () => (await greetings('grace')) === 1, { what: 'grace to be greeted once' });
  });

  it('should handle an event delivered twice only once', async () => {
    // The same event arriving again under another message id (past JetStream's duplicate window).
    const envelope: EventEnvelope = {
      id: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
      type: 'auth.UserRegistered',
      version: 1,
      occurredAt: new Date().toISOString(),
      payload: {
        userId: 5,
        username: 'twice',
        email: 'twice@example.com',
        role: 'user',
        registeredAt: new Date().toISOString(),
      },
    };
    const nc = await connect({ servers: env.natsUrl });
    const js = jetstream(nc);
    const subject = namespaced({ namespace: env.namespace }, AuthEvents.UserRegistered.subject);
    await js.publish(subject, JSON.stringify(envelope), { msgID: 'first-copy' });
    await js.publish(subject, JSON.stringify(envelope), { msgID: 'second-copy' });
    await app.get(Announcer).announce(6, 'marker');
    await waitFor(async () => (await greetings('marker')) === 1, { what: 'the marker event' });
    await nc.close();
    expect(await greetings('twice')).toBe(1);
    expect(deliveries.get('twice')).toBe(1);
  });

  it('should park an event that failed every attempt, never drop it, and keep consuming others', async () => {
    await app.get(Announcer).announce(7, 'always_fails');
    await waitFor(async () => (await parked('always_fails')).length === 1, {
      timeoutMs: 30_000,
      what: 'the event parked',
    });
    await app.get(Announcer).announce(8, 'still_flowing');
    await waitFor(async () => (await greetings('still_flowing')) === 1, { timeoutMs: 15_000, what: 'later events' });
    expect(await greetings('always_fails')).toBe(0);
    expect(deliveries.get('always_fails')).toBe(3);
    expect(await parked('always_fails')).toEqual([
      { consumer: 'reporting-auth-UserRegistered-v1', deliveries: 3, error: 'permanent failure' },
    ]);
  });

  it('should handle an event once when it fails for longer than its attempts while even parking is impossible', async () => {
    // The database the handler needs is away: the handler fails, and so does parking the event.
    await db.query(`ALTER TABLE kit.dead_letters RENAME TO dead_letters_away`);
    outage.add('patient');
    try {
      await app.get(Announcer).announce(10, 'patient');
      await waitFor(async () => (deliveries.get('patient') ?? 0) >= 6, {
        timeoutMs: 30_000,
        what: 'six failed deliveries',
      });
    } finally {
      await db.query(`ALTER TABLE kit.dead_letters_away RENAME TO dead_letters`);
      outage.delete('patient');
    }
    await waitFor(async () => (await greetings('patient')) === 1, { timeoutMs: 15_000, what: 'patient to be greeted' });
    expect(await parked('patient')).toEqual([]);
  });

  it('should replay a parked event: handled once by the consumer that parked it, and off the table', async () => {
    outage.add('replayed');
    await app.get(Announcer).announce(11, 'replayed');
    await waitFor(async () => (await parked('replayed')).length === 1, { timeoutMs: 30_000, what: 'the event parked' });
    outage.delete('replayed');

    const settings = { url: env.natsUrl, namespace: env.namespace, name: 'replay-test' };
    const listed = await replayDeadLetters(database(config), settings, { dryRun: true });
    expect(listed.map((event) => event.consumer)).toContain('reporting-auth-UserRegistered-v1');
    expect(await parked('replayed')).toHaveLength(1);

    const target = listed.find((entry) => entry.error === 'the ledger is unreachable');
    const replayed = await replayDeadLetters(database(config), settings, { eventId: target!.eventId });
    expect(replayed.map((event) => event.subject)).toEqual([AuthEvents.UserRegistered.subject]);
    await waitFor(async () => (await greetings('replayed')) === 1, { timeoutMs: 15_000, what: 'the replayed event' });
    expect(await parked('replayed')).toEqual([]);
    // Only the chosen event was replayed: the other parked one is still there.
    expect((await parked('always_fails')).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await greetings('replayed')).toBe(1);
  });

  it('should drop a malformed event instead of retrying it forever', async () => {
    const nc = await connect({ servers: env.natsUrl });
    await jetstream(nc).publish(
      namespaced({ namespace: env.namespace }, AuthEvents.UserRegistered.subject),
      '{"not":"an envelope"}',
    );
    await nc.close();
    await app.get(Announcer).announce(9, 'after_garbage');
    await waitFor(async () => (await greetings('after_garbage')) === 1, { what: 'the event after the malformed one' });
  });
});

describe('consumers during shutdown', () => {
  it('should close an app whose consumers are still being set up', async () => {
    const env = await createTestServiceEnvironment('events-stop');
    try {
      const config = loadConfig(serviceConfigSchema, env.env);
      await runMigrations(database(config));
      for (let round = 0; round < 3; round += 1) {
        const app = await createServiceApp(
          {
            service: 'reporting',
            configSchema: serviceConfigSchema,
            database,
            module: (c) => KitTestModule.forRoot(c),
          },
          config,
        );
        // At once: the consumer loop is still creating its consumer when shutdown starts. Before
        // the fix the loop went on to consume after shutdown and close() never resolved.
        await app.close();
      }
    } finally {
      await env.database.drop();
    }
  });
});
