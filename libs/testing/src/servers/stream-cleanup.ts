import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** Streams of a test namespace: `<label><8 hex>_NAME`, and KV buckets `KV_<label><8 hex>_<bucket>` (lower case). */
const TEST_STREAM = /^(KV_)?[A-Za-z0-9-]*[0-9a-f]{8}_[A-Za-z0-9_-]+$/;

/**
 * Deletes the JetStream streams (and KV buckets) that tests created in their own namespaces,
 * so a shared NATS server does not collect them run after run. Only names of the test pattern
 * that carry the run's token (see testNamespace), or start with the given namespace, are touched:
 * another run going on beside this one keeps its streams.
 */
export async function deleteTestStreams(
  natsUrl: string,
  options: { run?: string; namespace?: string } = {},
): Promise<number> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'test-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    const doomed: string[] = [];
    for await (const stream of jsm.streams.list()) {
      const name = stream.config.name;
      const ours = options.namespace
        ? name.startsWith(options.namespace) || name.startsWith(`KV_${options.namespace}`)
        : TEST_STREAM.test(name) && options.run !== undefined && ofRun(name, options.run);
      if (ours) doomed.push(name);
    }
    for (const name of doomed) await jsm.streams.delete(name).catch(() => false);
    return doomed.length;
  } finally {
    await nc.close();
  }
}

/** The run's token stands just before the namespace's 8 random hex digits. */
function ofRun(name: string, run: string): boolean {
  const namespace = name.replace(/^KV_/, '').split('_')[0] ?? '';
  return namespace.slice(0, -8).endsWith(run);
}
