import { randomUUID } from 'node:crypto';
import { SESSION_REVOCATIONS_BUCKET, type SessionRevocation } from '@likeness/contracts';
import { KvBucket, type NatsSettings, connectNats } from '@likeness/nest-kit';
import { testNamespace, testNatsUrl, waitFor } from '@likeness/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { SessionRevocationList } from '../../src/auth/session-revocation-list.js';

/** Gateway replicas on their own connections, and auth's side of the bucket written as auth writes it. */
describe(SessionRevocationList.name, () => {
  const settings: NatsSettings = {
    url: testNatsUrl(),
    namespace: testNamespace('revocations'),
    name: 'revocations-test',
  };
  const connections: NatsConnection[] = [];
  const replicas: SessionRevocationList[] = [];
  let bucket: KvBucket;

  const revocation = (minutes = 15): SessionRevocation => ({
    sessionId: randomUUID(),
    until: new Date(Date.now() + minutes * 60_000).toISOString(),
  });
  const revoke = async (entry: SessionRevocation) => (await bucket.open()).put(entry.sessionId, JSON.stringify(entry));

  async function startReplica(): Promise<SessionRevocationList> {
    const connection = await connectNats(settings);
    connections.push(connection);
    const replica = new SessionRevocationList(connection, settings);
    replica.onApplicationBootstrap();
    replicas.push(replica);
    return replica;
  }

  beforeAll(async () => {
    connections.push(await connectNats(settings));
    bucket = new KvBucket(connections[0]!, settings, SESSION_REVOCATIONS_BUCKET, { ttlMs: 16 * 60_000 });
  });

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.beforeApplicationShutdown()));
    await (await bucket.open()).destroy();
    await Promise.all(connections.map((connection) => connection.drain()));
  });

  it('should pick revocations up once auth has created the list, when it started before', async () => {
    const early = await startReplica();
    const entry = revocation();
    await revoke(entry);
    await waitFor(async () => early.isRevoked(entry.sessionId), { what: 'the early replica to see the revocation' });
  });

  it('should learn revocations written while it runs', async () => {
    const [running] = replicas;
    const entry = revocation();
    expect(running!.isRevoked(entry.sessionId)).toBe(false);
    await revoke(entry);
    await waitFor(async () => running!.isRevoked(entry.sessionId), { what: 'the watch to deliver the revocation' });
  });

  it('should know every live revocation as soon as it has loaded, when it started after them', async () => {
    const before = [revocation(), revocation(), revocation()];
    for (const entry of before) await revoke(entry);
    const late = await startReplica();
    await late.loaded;
    for (const entry of before) expect(late.isRevoked(entry.sessionId)).toBe(true);
    expect(late.isRevoked(randomUUID())).toBe(false);
  });

  it('should refuse at once what it adds itself, and forget revocations whose tokens have expired', async () => {
    const sut = await startReplica();
    await sut.loaded;
    const local = revocation();
    sut.add(local);
    expect(sut.isRevoked(local.sessionId)).toBe(true);
    const expired = revocation(-1);
    sut.add(expired);
    expect(sut.isRevoked(expired.sessionId)).toBe(false);
  });

  it('should ignore a malformed entry and keep watching', async () => {
    const [running] = replicas;
    await (await bucket.open()).put(randomUUID(), 'not json');
    const entry = revocation();
    await revoke(entry);
    await waitFor(async () => running!.isRevoked(entry.sessionId), { what: 'the revocation after the malformed one' });
  });
});
