import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { deleteTestStreams } from '../src/servers/stream-cleanup.js';
import { testNatsUrl } from '../src/index.js';

describe(deleteTestStreams.name, () => {
  it("should delete a run's streams and KV buckets, and leave another run's alone", async () => {
    const nc = await connect({ servers: testNatsUrl() });
    try {
      const jsm = await jetstreamManager(nc);
      const ours = 'cleanupabc1230a1b2c3d';
      const theirs = 'cleanupdef4560a1b2c3d';
      for (const namespace of [ours, theirs]) {
        await jsm.streams.add({ name: `${namespace}_EVENTS`, subjects: [`${namespace}.events.>`] });
        // A KV bucket is a stream named like this (its bucket name in lower case).
        const bucket = `${namespace}_session_revocations`;
        await jsm.streams.add({ name: `KV_${bucket}`, subjects: [`$KV.${bucket}.>`] });
      }
      const names = async () => {
        const found: string[] = [];
        for await (const stream of jsm.streams.list()) found.push(stream.config.name);
        return found.filter((name) => name.includes('cleanup'));
      };

      await expect(deleteTestStreams(testNatsUrl(), { run: 'abc123' })).resolves.toBe(2);
      expect((await names()).sort()).toEqual([`KV_${theirs}_session_revocations`, `${theirs}_EVENTS`].sort());
      await deleteTestStreams(testNatsUrl(), { namespace: theirs });
      expect(await names()).toEqual([]);
    } finally {
      await nc.close();
    }
  });
});
