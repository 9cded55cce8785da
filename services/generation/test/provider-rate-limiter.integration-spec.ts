import { connectNats } from '@likeness/nest-kit';
import { testNamespace, testNatsUrl, waitFor } from '@likeness/testing';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { ProviderRateLimiter } from '../src/workers/provider-rate-limiter.js';

describe(ProviderRateLimiter.name, () => {
  let nats: NatsConnection;
  const namespace = testNamespace('rate');
  const settings = () => ({ url: testNatsUrl(), namespace, name: 'rate-limiter-test' });

  beforeAll(async () => {
    nats = await connectNats(settings());
  });

  afterAll(async () => {
    await new Kvm(nats)
      .open(`${namespace}_generation_rate`)
      .then((kv) => kv.destroy())
      .catch(() => undefined);
    await nats.drain();
  });

  it('should share one budget between replicas and let no more through than the rate allows', async () => {
    // 60 a minute: a burst of 10 (ten seconds' worth), then one a second. The clock stands still
    // until the test moves it, so only the budget decides who gets through.
    let now = Date.parse('2026-11-23T10:00:00Z');
    const clock = () => now;
    const replicas = [
      new ProviderRateLimiter(nats, settings(), 60, clock),
      new ProviderRateLimiter(nats, settings(), 60, clock),
    ];
    let granted = 0;
    const abort = new AbortController();
    const waiting = Array.from({ length: 14 }, (_, index) =>
      replicas[index % 2]!.acquire(abort.signal).then(
        () => (granted += 1),
        () => undefined,
      ),
    );

    await waitFor(async () => granted === 10, { what: 'the burst granted' });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(granted).toBe(10);

    now += 1_000; // one more second's worth
    await waitFor(async () => granted === 11, { what: 'one more after a second' });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(granted).toBe(11);

    abort.abort();
    await Promise.all(waiting);
    expect(granted).toBe(11);
  });

  it('should not limit when the rate is 0', async () => {
    const unlimited = new ProviderRateLimiter(nats, settings(), 0);
    await Promise.all(Array.from({ length: 50 }, () => unlimited.acquire()));
    expect(unlimited.limited).toBe(false);
  });
});
