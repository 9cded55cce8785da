import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { freePort, waitFor } from './free-port.js';

/** The `nats-server` binary on PATH, or undefined. */
export function findNatsServer(): string | undefined {
  const found = spawnSync(
    'sh',
    ['-c', 'command -v nats-server || ls /usr/sbin/nats-server /usr/local/bin/nats-server 2>/dev/null'],
    {
      encoding: 'utf8',
    },
  );
  return found.stdout
    .split('\n')
    .find((line) => line.trim())
    ?.trim();
}

export interface NatsServerHandle {
  url: string;
  port: number;
  /** Stops the server; JetStream data stays in its store directory. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
}

/**
 * Runs `nats-server` with JetStream on 127.0.0.1, storing under `storeDir`. Tests use it when
 * they need to stop and start the broker; `npm start` uses it when NATS_URL is not set.
 */
export async function startNatsServer(options: {
  storeDir: string;
  port?: number;
  binary?: string;
  logFile?: string;
  /** A configuration file (`-c`), e.g. deploy/nats/auth.conf's users; its `$VARS` come from `env`. */
  configFile?: string;
  env?: Record<string, string>;
}): Promise<NatsServerHandle> {
  const binary = options.binary ?? findNatsServer();
  if (!binary) {
    throw new Error(
      'nats-server was not found on PATH. Install it (Debian/Ubuntu: `apt-get install nats-server`; macOS: `brew install nats-server`) or set NATS_URL to a NATS server with JetStream.',
    );
  }
  const port = options.port ?? (await freePort());
  mkdirSync(options.storeDir, { recursive: true });
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', options.storeDir];
    if (options.configFile) args.push('-c', options.configFile);
    if (options.logFile) args.push('-l', options.logFile);
    const proc = spawn(binary, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    });
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`nats-server exited: ${stderr.trim()}`);
        return (await canConnect(port)) || undefined;
      },
      { what: `nats-server on port ${port}` },
    );
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.kill('SIGTERM');
    });
  };

  await start();
  return { url: `nats://127.0.0.1:${port}`, port, stop, start };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export type { ChildProcess };
