import { TokenBuckets, connectNats, perWindow } from '@likeness/nest-kit';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { testNamespace, testNatsUrl } from '../src/index.js';

describe(TokenBuckets.name, () => {
  let nats: NatsConnection;
  const namespace = testNamespace('buckets');
  const settings = { namespace };
  let now = Date.parse('2026-11-23T10:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    nats = await connectNats({ url: testNatsUrl(), namespace, name: 'token-buckets-test' });
  });

  afterAll(async () => {
    await new Kvm(nats)
      .open(`${namespace}_test_limits`)
      .then((kv) => kv.destroy())
      .catch(() => undefined);
    await nats.drain();
  });

  it('should let exactly the capacity through when replicas race for one key', async () => {
    const replicas = [0, 1, 2].map(() => new TokenBuckets(nats, settings, 'test_limits', { ttlMs: 60_000 }, clock));
    const rule = perWindow(10, 600);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, index) => replicas[index % 3]!.take('race', rule)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    const refused = results.find((result) => !result.allowed);
    // One token comes back every 60 s.
    expect(refused?.retryAfterMs).toBe(60_000);
  });

  it('should count every one of a burst of takes on one key in one process, none lost to its own races', async () => {
    const sut = new TokenBuckets(nats, settings, 'test_limits', { ttlMs: 60_000 }, clock);
    const rule = perWindow(1_000, 600);
    const results = await Promise.allSettled(Array.from({ length: 150 }, () => sut.take('burst', rule)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await sut.take('burst', rule)).toMatchObject({ allowed: true, remaining: 1_000 - 151 });
  });

  it('should refill at its rate and take back what was given', async () => {
    const sut = new TokenBuckets(nats, settings, 'test_limits', { ttlMs: 60_000 }, clock);
    const rule = { capacity: 2, perSecond: 1 };
    expect((await sut.take('refill', rule)).allowed).toBe(true);
    expect((await sut.take('refill', rule)).allowed).toBe(true);
    expect(await sut.take('refill', rule)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1_000 });
    now += 500;
    expect((await sut.take('refill', rule)).allowed).toBe(false);
    await sut.give('refill', rule);
    expect((await sut.take('refill', rule)).allowed).toBe(true);
    now += 10_000;
    expect(await sut.take('refill', rule)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
  });

  it('should keep keys apart', async () => {
    const sut = new TokenBuckets(nats, settings, 'test_limits', { ttlMs: 60_000 }, clock);
    const rule = { capacity: 1, perSecond: 0.001 };
    expect((await sut.take('left', rule)).allowed).toBe(true);
    expect((await sut.take('left', rule)).allowed).toBe(false);
    expect((await sut.take('right', rule)).allowed).toBe(true);
  });
});
