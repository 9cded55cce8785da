import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where ports are drawn from when the kernel's ephemeral range cannot be read. */
const FALLBACK_EPHEMERAL_LOW = 32_768;
const LOWEST_PORT = 10_000;
const ATTEMPTS = 50;
/** Ports this process has handed out, so that one stack never gets the same port twice. */
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, for a server started a moment later.
 *
 * It is drawn at random from below the kernel's ephemeral range: a port the kernel chose (listening
 * on port 0) is one it may also give the next outgoing connection of any process, which then holds
 * it when our server binds (EADDRINUSE), and a machine running tests makes thousands of them.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  if (high > LOWEST_PORT) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const port = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT + 1));
      if (handedOut.has(port)) continue;
      if ((await listenOn(port)) !== undefined) {
        handedOut.add(port);
        return port;
      }
    }
  }
  const port = await listenOn(0);
  if (port === undefined) throw new Error('No free TCP port on 127.0.0.1');
  return port;
}

/** The port a listener got on 127.0.0.1 (closed again at once), or undefined when it is taken. */
function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}

/** The lowest port of the kernel's ephemeral range (Linux), or the usual default elsewhere. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : FALLBACK_EPHEMERAL_LOW;
  } catch {
    return FALLBACK_EPHEMERAL_LOW;
  }
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  {
    timeoutMs = 10_000,
    intervalMs = 100,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`,
  );
}
