import { KvBucket, connectNats, ensureEventsStream, natsSettingsOf, namespacedStream } from '@likeness/nest-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { testNamespace, testNatsUrl } from '../src/index.js';

const MIB = 1024 * 1024;

describe('streams and buckets as configured', () => {
  const namespace = testNamespace('streams');
  const settingsWith = (env: { EVENTS_MAX_BYTES?: number; JETSTREAM_REPLICAS?: number }) =>
    natsSettingsOf(
      {
        NATS_URL: testNatsUrl(),
        NATS_NAMESPACE: namespace,
        JETSTREAM_REPLICAS: env.JETSTREAM_REPLICAS ?? 1,
        EVENTS_MAX_BYTES: env.EVENTS_MAX_BYTES,
      },
      'streams-test',
    );
  let nats: NatsConnection;

  beforeAll(async () => {
    nats = await connectNats(settingsWith({}));
  });

  afterAll(async () => {
    const jsm = await jetstreamManager(nats);
    for (const stream of [namespacedStream({ namespace }, 'EVENTS'), `KV_${namespacedStream({ namespace }, 'limits')}`])
      await jsm.streams.delete(stream).catch(() => undefined);
    await nats?.close();
  });

  it('should cap the events stream by size as well as age, and follow a changed cap', async () => {
    const jsm = await jetstreamManager(nats);
    const name = await ensureEventsStream(jsm, settingsWith({ EVENTS_MAX_BYTES: 64 * MIB }));
    expect((await jsm.streams.info(name)).config).toMatchObject({ max_bytes: 64 * MIB, num_replicas: 1 });

    await ensureEventsStream(jsm, settingsWith({ EVENTS_MAX_BYTES: 32 * MIB }));
    expect((await jsm.streams.info(name)).config.max_bytes).toBe(32 * MIB);

    await ensureEventsStream(jsm, settingsWith({}));
    expect((await jsm.streams.info(name)).config.max_bytes).toBe(-1);
  });

  it('should ask for the configured replicas (one server cannot keep three copies)', async () => {
    const jsm = await jetstreamManager(nats);
    await jsm.streams.delete(namespacedStream({ namespace }, 'EVENTS'));
    await expect(ensureEventsStream(jsm, settingsWith({ JETSTREAM_REPLICAS: 3 }))).rejects.toThrow(/replicas/i);
    await expect(new KvBucket(nats, settingsWith({ JETSTREAM_REPLICAS: 3 }), 'limits').open()).rejects.toThrow(
      /replicas/i,
    );

    const kv = await new KvBucket(nats, settingsWith({}), 'limits').open();
    expect((await kv.status()).replicas).toBe(1);
  });
});
