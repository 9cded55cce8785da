import { TEST_NATS_URL, TEST_RUN } from '../environment.js';
import { deleteTestStreams } from '../servers/stream-cleanup.js';

type Stop = () => Promise<unknown>;
const globals = globalThis as typeof globalThis & { __likenessStops?: Stop[] };

export default async function globalTeardown(): Promise<void> {
  // The suites' own streams and KV buckets, so a shared NATS server does not collect them.
  const natsUrl = process.env[TEST_NATS_URL];
  const run = process.env[TEST_RUN];
  if (natsUrl && run) {
    await deleteTestStreams(natsUrl, { run }).catch((error: Error) =>
      process.stderr.write(`Could not delete the test streams: ${error.message}\n`),
    );
  }
  for (const stop of (globals.__likenessStops ?? []).reverse()) await stop();
  globals.__likenessStops = [];
}
