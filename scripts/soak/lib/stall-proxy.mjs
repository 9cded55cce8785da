// A TCP proxy the soak puts between the stack and PostgreSQL, so it can "pause" the database
// without touching the server (the machine's PostgreSQL is shared): `stall(ms)` stops carrying
// bytes both ways on every connection and holds new ones, then carries on where it stopped, as a
// frozen server would look to its clients. It runs in a worker thread, so the soak's own load and
// bookkeeping never delay the database traffic.
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * Starts the proxy to `upstream` on 127.0.0.1 (a free port).
 * @param {{ host: string, port: number }} upstream
 * @returns {Promise<{ port: number, stall(ms: number): Promise<void>, close(): Promise<void> }>}
 */
export async function startStallProxy(upstream) {
  const worker = new Worker(new URL(import.meta.url), { workerData: upstream });
  const replies = new Map();
  let next = 0;
  worker.on('message', (message) => {
    replies.get(message.id)?.(message);
    replies.delete(message.id);
  });
  const ask = (command) =>
    new Promise((resolve) => {
      next += 1;
      replies.set(next, resolve);
      worker.postMessage({ ...command, id: next });
    });
  const { port } = await ask({ command: 'listen' });
  return {
    port,
    stall: (ms) => ask({ command: 'stall', ms }).then(() => undefined),
    close: async () => {
      await ask({ command: 'close' });
      await worker.terminate();
    },
  };
}

function runProxy({ host, port }) {
  const pairs = new Set();
  let stalled = false;
  /** Connections that arrived during a stall: opened when it ends. */
  let waiting = [];

  const carry = (pair) => {
    pair.client.pipe(pair.server);
    pair.server.pipe(pair.client);
  };
  const hold = (pair) => {
    pair.client.unpipe(pair.server);
    pair.server.unpipe(pair.client);
    pair.client.pause();
    pair.server.pause();
  };
  const open = (client) => {
    const pair = { client, server: connect({ host, port }) };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      pair.server.destroy();
    };
    client.on('error', end).on('close', end);
    pair.server.on('error', end).on('close', end);
    carry(pair);
  };

  const proxy = createServer((client) => (stalled ? waiting.push(client) : open(client)));
  parentPort.on('message', async ({ command, id, ms }) => {
    if (command === 'listen') {
      proxy.listen(0, '127.0.0.1');
      await once(proxy, 'listening');
      parentPort.postMessage({ id, port: proxy.address().port });
    } else if (command === 'stall') {
      stalled = true;
      for (const pair of pairs) hold(pair);
      await new Promise((resolve) => setTimeout(resolve, ms));
      stalled = false;
      for (const pair of pairs) carry(pair);
      const arrived = waiting;
      waiting = [];
      for (const client of arrived) if (!client.destroyed) open(client);
      parentPort.postMessage({ id });
    } else if (command === 'close') {
      for (const client of waiting) client.destroy();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      proxy.close();
      parentPort.postMessage({ id });
    }
  });
}

if (!isMainThread && workerData?.port) runProxy(workerData);
