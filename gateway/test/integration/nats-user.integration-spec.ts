import { randomUUID } from 'node:crypto';
import { BillingEvents, SESSION_REVOCATIONS_BUCKET, type SessionRevocation } from '@likeness/contracts';
import {
  KvBucket,
  type NatsSettings,
  TokenBuckets,
  connectNats,
  ensureEventsStream,
  namespaced,
} from '@likeness/nest-kit';
import { type NatsServerWithUsers, startNatsServerWithUsers, testNamespace, waitFor } from '@likeness/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SessionRevocationList } from '../../src/auth/session-revocation-list.js';
import type { LiveEvent } from '../../src/events/live-events.js';
import { UserEventBus } from '../../src/events/user-event-bus.js';

/**
 * The gateway's own uses of NATS beyond its RPC calls, as the NATS user "gateway" on a server
 * with the generated users: the live events (ordered consumers over the events stream), the
 * session revocations auth writes (a KV watch), and its rate limits (a KV bucket of its own).
 */
describe('the gateway as the NATS user "gateway"', () => {
  const namespace = testNamespace('gatewayuser');
  let nats: NatsServerWithUsers;
  const connections: NatsConnection[] = [];
  let bus: UserEventBus;
  let revocations: SessionRevocationList;

  const settingsOf = (user: string): NatsSettings => nats.settingsOf(user);
  const connectAs = async (user: string) => {
    const connection = await connectNats(settingsOf(user));
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    nats = await startNatsServerWithUsers({ namespace });
    const gateway = await connectAs('gateway');
    bus = new UserEventBus(gateway, settingsOf('gateway'));
    bus.onApplicationBootstrap();
    revocations = new SessionRevocationList(gateway, settingsOf('gateway'));
    revocations.onApplicationBootstrap();
  });

  afterAll(async () => {
    await bus?.beforeApplicationShutdown();
    await revocations?.beforeApplicationShutdown();
    for (const connection of connections) await connection.close();
    await nats?.stop();
  });

  it("should hand a user billing's CreditsChanged live, and replay it on resume", async () => {
    const billing = await connectAs('billing');
    await ensureEventsStream(await jetstreamManager(billing), settingsOf('billing'));
    const received: LiveEvent[] = [];
    const unsubscribe = bus.subscribe(7, (event) => received.push(event));
    const envelope = {
      id: randomUUID(),
      type: 'billing.CreditsChanged',
      version: 1,
      occurredAt: new Date().toISOString(),
      payload: { userId: 7, delta: 5, balance: 5, available: 5, reason: 'purchase' },
    };
    // Published until the live consumer, which starts with new events, has seen one.
    await waitFor(async () => {
      await jetstream(billing).publish(
        namespaced({ namespace }, BillingEvents.CreditsChanged.subject),
        JSON.stringify({ ...envelope, id: randomUUID() }),
      );
      return received.length > 0 || undefined;
    });
    unsubscribe();
    expect(received[0]).toMatchObject({ userId: 7, type: 'credits.changed', data: { balance: 5, available: 5 } });

    const replayed: LiveEvent[] = [];
    expect(await bus.replay(7, received[0]!.id - 1, 1_000, (event) => replayed.push(event))).toBe('replayed');
    expect(replayed[0]).toEqual(received[0]);
  });

  it('should learn the session revocations auth writes', async () => {
    const bucket = new KvBucket(await connectAs('auth'), settingsOf('auth'), SESSION_REVOCATIONS_BUCKET, {
      ttlMs: 16 * 60_000,
    });
    const revoked: SessionRevocation = {
      sessionId: randomUUID(),
      until: new Date(Date.now() + 15 * 60_000).toISOString(),
    };
    await (await bucket.open()).put(revoked.sessionId, JSON.stringify(revoked));
    await waitFor(async () => revocations.isRevoked(revoked.sessionId) || undefined, {
      what: 'the gateway to see the revocation',
    });
  });

  it('should keep its rate limits in its own bucket, and not write the revocations', async () => {
    const gateway = connections[0]!;
    const limits = new TokenBuckets(gateway, settingsOf('gateway'), 'gateway_rate_limits', { ttlMs: 60_000 });
    const rule = { capacity: 1, perSecond: 0.01 };
    expect((await limits.take('login:203.0.113.9', rule)).allowed).toBe(true);
    expect((await limits.take('login:203.0.113.9', rule)).allowed).toBe(false);

    const forged = new KvBucket(gateway, settingsOf('gateway'), SESSION_REVOCATIONS_BUCKET);
    await expect((await forged.open()).put(randomUUID(), '{}')).rejects.toThrow();
  });
});
