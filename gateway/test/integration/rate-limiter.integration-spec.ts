import { RateLimitedError, loadConfig } from '@likeness/nest-kit';
import { testNamespace, testNatsUrl } from '@likeness/testing';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { RateLimiter } from '../../src/auth/rate-limiter.js';
import { gatewayConfigSchema } from '../../src/gateway.config.js';

/** Two limiters on two connections in one namespace: two gateway replicas, on one clock. */
describe(RateLimiter.name, () => {
  const namespace = testNamespace('limits');
  const config = loadConfig(gatewayConfigSchema, {
    JWT_SECRET: 'x'.repeat(32),
    MEDIA_SECRET: 'm'.repeat(32),
    RATE_LIMIT_WINDOW_SECONDS: '60',
    LOGIN_LIMIT_PER_IP: '3',
    REGISTER_LIMIT_PER_IP: '1',
    UPLOAD_LIMIT_PER_MINUTE: '6',
    UPLOAD_LIMIT_BURST: '2',
  });
  const connections: NatsConnection[] = [];
  let now = Date.UTC(2026, 10, 21, 12, 0, 30);
  const clock = () => now;
  let replicaA: RateLimiter;
  let replicaB: RateLimiter;

  beforeAll(async () => {
    for (let index = 0; index < 2; index += 1) connections.push(await connect({ servers: testNatsUrl() }));
    const settings = { url: testNatsUrl(), namespace, name: 'limits-test' };
    replicaA = new RateLimiter(connections[0]!, settings, config, clock);
    replicaB = new RateLimiter(connections[1]!, settings, config, clock);
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it('should share one count between replicas and refuse past the limit, saying when to retry', async () => {
    await replicaA.consume('login', 'ip:203.0.113.9');
    await replicaB.consume('login', 'ip:203.0.113.9');
    await replicaA.consume('login', 'ip:203.0.113.9');
    const refusal = await replicaB.consume('login', 'ip:203.0.113.9').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    // 3 per 60 s: one attempt comes back every 20 s.
    expect(refusal).toMatchObject({
      status: 429,
      retryAfterSeconds: 20,
      message: 'Too many attempts. Please wait a minute and try again.',
    });
  });

  it('should lose no count when replicas count the same key at the same moment', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? replicaA : replicaB).consume('login', 'ip:198.51.100.1')),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
  });

  it('should count keys and rules apart and let a request through again once its bucket refilled', async () => {
    await replicaA.consume('register', 'ip:a');
    await expect(replicaA.consume('register', 'ip:b')).resolves.toBeUndefined();
    await expect(replicaA.consume('login', 'ip:a')).resolves.toBeUndefined();
    now += 59_000;
    await expect(replicaB.consume('register', 'ip:a')).rejects.toBeInstanceOf(RateLimitedError);
    now += 1_000;
    await expect(replicaB.consume('register', 'ip:a')).resolves.toBeUndefined();
  });

  it('should name what a per-user rule counts and allow its burst', async () => {
    await replicaA.consume('uploads', 'user:7');
    await replicaB.consume('uploads', 'user:7');
    await expect(replicaA.consume('uploads', 'user:7')).rejects.toMatchObject({
      retryAfterSeconds: 10,
      message: 'Too many uploads. Please wait a minute and try again.',
    });
  });
});
