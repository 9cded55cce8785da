import { setTimeout as sleep } from 'node:timers/promises';
import { readFile } from 'node:fs/promises';
import { AuthEvents, AuthRpc, BillingEvents, eventConsumerName } from '@likeness/contracts';
import {
  type NatsSettings,
  RpcClient,
  connectNats,
  createServiceApp,
  ensureConsumer,
  ensureEventsStream,
  loadConfig,
  namespaced,
  runMigrations,
} from '@likeness/nest-kit';
import {
  type NatsServerWithUsers,
  createTestServiceEnvironment,
  freePort,
  readDevMailbox,
  startNatsServerWithUsers,
  waitFor,
} from '@likeness/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AuthConfig } from '../src/auth.config.js';
import { authService } from '../src/auth.service-definition.js';

/**
 * Auth, in process, as its own NATS user on a server with the users `npm run nats:config`
 * generates: it serves the gateway's calls, publishes and handles its events, queues and runs its
 * mail jobs and keeps its buckets, all within its permissions; other users are refused what is
 * not theirs, and a wrong password stops auth with words.
 */
describe('auth as the NATS user "auth"', () => {
  let nats: NatsServerWithUsers;
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let config: AuthConfig;
  let auth: NestFastifyApplication;
  const connections: NatsConnection[] = [];

  const settingsOf = (user: string): NatsSettings => nats.settingsOf(user);
  const connectAs = async (user: string) => {
    const connection = await connectNats(settingsOf(user));
    connections.push(connection);
    return connection;
  };
  const subject = (name: string) => namespaced({ namespace: env.namespace }, name);
  /** The server's log names each refusal: `Publish Violation - User "billing", Subject "..."`. */
  const refusedInLog = (what: 'Publish' | 'Subscription', user: string, subjectName: string) =>
    waitFor(
      async () =>
        (await readFile(nats.logFile, 'utf8')).includes(
          `${what} Violation - User "${user}", Subject "${subjectName}"`,
        ) || undefined,
      { what: `the server to log the refused ${what.toLowerCase()} of ${user} to ${subjectName}` },
    );

  beforeAll(async () => {
    const port = await freePort();
    env = await createTestServiceEnvironment('natsusers', `nats://127.0.0.1:${port}`);
    nats = await startNatsServerWithUsers({ namespace: env.namespace, port });
    config = loadConfig(authService.configSchema, {
      ...env.env,
      ...nats.credentialsOf('auth'),
      PUBLIC_URL: 'https://likeness.example',
    });
    await runMigrations(authService.database(config));
    auth = await createServiceApp(authService, config);
  });

  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await auth?.close();
    await nats?.stop();
    await env?.database.drop();
  });

  it("should answer the gateway's calls, and mail the welcome its own event queues", async () => {
    const gateway = new RpcClient(await connectAs('gateway'), settingsOf('gateway'), 5_000);
    const session = await gateway.call(AuthRpc.register, {
      username: 'ada_nats',
      email: 'ada_nats@example.com',
      password: 'secret-password',
    });
    expect(session.user.username).toBe('ada_nats');
    expect(await gateway.call(AuthRpc.getUser, { userId: session.user.id })).toMatchObject({ username: 'ada_nats' });

    // UserRegistered left through auth's outbox, auth's own consumer handled it and queued the
    // welcome job, and auth's job worker took the job and sent the mail.
    const [welcome] = await waitFor(async () => {
      const mails = (await readDevMailbox(env.env['DATA_DIR']!)).filter((mail) =>
        mail.to.includes('ada_nats@example.com'),
      );
      return mails.length > 0 ? mails : undefined;
    });
    expect(welcome!.subject).toBe('Welcome to Likeness, ada_nats');
  });

  it('should let billing read the UserRegistered auth published, through its own durable consumer', async () => {
    const billing = await connectAs('billing');
    const jsm = await jetstreamManager(billing);
    const stream = await ensureEventsStream(jsm, settingsOf('billing'));
    const durable = eventConsumerName('billing', AuthEvents.UserRegistered);
    await ensureConsumer(jsm, settingsOf('billing'), stream, {
      durable,
      filterSubject: AuthEvents.UserRegistered.subject,
      ackWaitMs: 30_000,
      maxDeliver: -1,
      maxAckPending: 100,
    });
    const consumer = await jetstream(billing).consumers.get(stream, durable);
    const message = await consumer.next({ expires: 5_000 });
    expect(message?.json<{ payload: { username: string } }>().payload.username).toBe('ada_nats');
    await message!.ackAck();
  });

  it("should refuse one service another's subjects", async () => {
    const billing = await connectAs('billing');
    // Calling auth: billing never does.
    await expect(billing.request(subject(AuthRpc.getUser.subject), '{}', { timeout: 2_000 })).rejects.toThrow();
    await refusedInLog('Publish', 'billing', subject(AuthRpc.getUser.subject));

    // Answering auth's RPC, or reading the gateway's replies.
    for (const stolen of [subject(AuthRpc.getUser.subject), '_INBOX.gateway.>']) {
      const subscription = billing.subscribe(stolen);
      const outcome = await Promise.race([subscription.closed, sleep(2_000, 'still open')]);
      expect(String(outcome)).toMatch(/Permissions Violation for Subscription/);
      await refusedInLog('Subscription', 'billing', stolen);
    }

    // Media publishing billing's events.
    const media = await connectAs('media');
    const forged = subject(BillingEvents.PaymentSucceeded.subject);
    await expect(jetstream(media).publish(forged, '{}', { timeout: 2_000 })).rejects.toThrow();
    await refusedInLog('Publish', 'media', forged);
  });

  it('should stop with words when its password is wrong, and name the user', async () => {
    await expect(createServiceApp(authService, { ...config, NATS_PASSWORD: 'not-the-password' })).rejects.toThrow(
      `NATS at ${nats.url} refused the user "auth" (NATS_USER) with its NATS_PASSWORD: Authorization Violation`,
    );
  });
});
