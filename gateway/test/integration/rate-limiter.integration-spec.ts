import { loadConfig } from '@likeness/nest-kit';
import { testNamespace, testNatsUrl } from '@likeness/testing';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { RateLimiter } from '../../src/auth/rate-limiter.js';
import { gatewayConfigSchema } from '../../src/gateway.config.js';
import { RateLimitedError } from '../../src/http/http-errors.js';

/** Two limiters on two connections in one namespace: two gateway replicas. */
describe(RateLimiter.name, () => {
  const namespace = testNamespace('limits');
  const config = loadConfig(gatewayConfigSchema, {
    JWT_SECRET: 'x'.repeat(32),
    MEDIA_SECRET: 'm'.repeat(32),
    RATE_LIMIT_WINDOW_SECONDS: '60',
  });
  const connections: NatsConnection[] = [];
  let replicaA: RateLimiter;
  let replicaB: RateLimiter;

  beforeAll(async () => {
    for (let index = 0; index < 2; index += 1) connections.push(await connect({ servers: testNatsUrl() }));
    const settings = { url: testNatsUrl(), namespace, name: 'limits-test' };
    replicaA = new RateLimiter(connections[0]!, settings, config);
    replicaB = new RateLimiter(connections[1]!, settings, config);
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it('should share one count between replicas and refuse past the limit, saying when to retry', async () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 30);
    await replicaA.consume('login:ip:203.0.113.9', 3, now);
    await replicaB.consume('login:ip:203.0.113.9', 3, now);
    await replicaA.consume('login:ip:203.0.113.9', 3, now);
    const refusal = await replicaB.consume('login:ip:203.0.113.9', 3, now).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({
      status: 429,
      retryAfterSeconds: 30,
      message: 'Too many attempts. Please wait a minute and try again.',
    });
  });

  it('should lose no count when replicas count the same key at the same moment', async () => {
    const now = Date.UTC(2026, 10, 21, 13, 0, 0);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? replicaA : replicaB).record('login:account:ada', now)),
    );
    await expect(replicaA.assertAllowed('login:account:ada', 21, now)).resolves.toBeUndefined();
    await expect(replicaB.assertAllowed('login:account:ada', 20, now)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('should count keys apart and start again in the next window', async () => {
    const now = Date.UTC(2026, 10, 21, 14, 0, 0);
    await replicaA.consume('register:ip:a', 1, now);
    await expect(replicaA.consume('register:ip:b', 1, now)).resolves.toBeUndefined();
    await expect(replicaB.consume('register:ip:a', 1, now + 59_999)).rejects.toBeInstanceOf(RateLimitedError);
    await expect(replicaB.consume('register:ip:a', 1, now + 60_000)).resolves.toBeUndefined();
  });
});
