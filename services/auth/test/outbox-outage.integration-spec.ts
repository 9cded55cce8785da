import { AuthEvents, EVENTS_STREAM, type EventPayload } from '@likeness/contracts';
import { createServiceApp, loadConfig, namespacedStream, runMigrations } from '@likeness/nest-kit';
import {
  type EventProbe,
  createTestServiceEnvironment,
  startEventProbe,
  startNatsServer,
  tempDir,
  waitFor,
} from '@likeness/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { authService } from '../src/auth.service-definition.js';
import { SessionsService } from '../src/sessions/sessions.service.js';

const USERS = 12;
const usernames = Array.from({ length: USERS }, (_, index) => `outage_${index}`);

/**
 * The outbox's promise: a broker outage delays events, never loses or doubles one. Auth and a
 * durable consumer (the kit's, with its inbox) run in process against a NATS server this test
 * stops and starts.
 */
describe('UserRegistered through a NATS outage', () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let auth: NestFastifyApplication;
  let consumer: EventProbe<typeof AuthEvents.UserRegistered>;
  let db: pg.Client;

  beforeAll(async () => {
    nats = await startNatsServer({ storeDir: tempDir('nats') });
    env = await createTestServiceEnvironment('outage', nats.url);
    const config = loadConfig(authService.configSchema, env.env);
    await runMigrations(authService.database(config));
    auth = await createServiceApp(authService, config);
    consumer = await startEventProbe(AuthEvents.UserRegistered, env);
    db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await auth?.close();
    await consumer?.close();
    await nats?.stop();
    await env?.database.drop();
  });

  const count = async (sql: string): Promise<number> => Number((await db.query<{ n: string }>(sql)).rows[0]?.n);
  const receivedNames = async () =>
    (await consumer.received()).map((event: EventPayload<typeof AuthEvents.UserRegistered>) => event.username);

  it('should deliver every UserRegistered exactly once when NATS was down while users registered', async () => {
    await nats.stop();
    const sessions = auth.get(SessionsService);
    for (const username of usernames) {
      await sessions.register({ username, email: `${username}@example.com`, password: 'secret-password' });
    }
    // Registered and recorded, not yet published.
    expect(await count(`SELECT count(*) AS n FROM auth.users`)).toBe(USERS);
    expect(await count(`SELECT count(*) AS n FROM auth.outbox WHERE published_at IS NULL`)).toBe(USERS);
    expect(await consumer.received()).toEqual([]);

    await nats.start();

    await waitFor(async () => (await consumer.received()).length === USERS, {
      timeoutMs: 30_000,
      what: 'the consumer to see every user',
    });
    expect(await receivedNames()).toEqual(usernames);
    expect(consumer.handlerRuns()).toBe(USERS);
    // The events; the welcome mails they queue meanwhile are auth's own jobs, published on their own time.
    expect(
      await count(`SELECT count(*) AS n FROM auth.outbox WHERE published_at IS NULL AND subject LIKE 'events.%'`),
    ).toBe(0);
  });

  it('should not double an event the relay publishes again', async () => {
    // As after a crash between publishing and recording it: the rows look unpublished again.
    await db.query(`UPDATE auth.outbox SET published_at = NULL`);
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM auth.outbox WHERE published_at IS NULL`)) === 0, {
      timeoutMs: 15_000,
      what: 'the relay to publish again',
    });

    const nc = await connect({ servers: nats.url });
    const stream = await (
      await jetstreamManager(nc)
    ).streams.info(namespacedStream({ namespace: env.namespace }, EVENTS_STREAM));
    await nc.close();
    // JetStream dropped the second copies by Nats-Msg-Id, and the consumer handled each event once.
    expect(stream.state.messages).toBe(USERS);
    expect(await receivedNames()).toEqual(usernames);
    expect(consumer.handlerRuns()).toBe(USERS);
  });
});
