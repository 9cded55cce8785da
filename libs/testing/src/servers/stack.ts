// Runs the whole product from the built apps: the six services and the gateway as child
// processes. Used by `npm start`, `npm run dev` and the system and browser tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { freePort } from './free-port.js';

/** The repository's root (this file lives in libs/testing/{src,dist}/servers). */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const SERVICES = ['auth', 'billing', 'media', 'training', 'generation', 'reporting'] as const;
/** A generation worker process: `generation-worker-<n>`, from 1. */
type WorkerApp = `generation-worker-${number}`;
type App = (typeof SERVICES)[number] | 'gateway' | WorkerApp;

const isWorker = (app: App): app is WorkerApp => app.startsWith('generation-worker-');

const entry = (app: App) =>
  join(
    ROOT,
    app === 'gateway' ? 'gateway/dist/main.js' : `services/${isWorker(app) ? 'generation' : app}/dist/main.js`,
  );

/** Runs every service's migrations (each in its own schema, so in parallel). */
export async function migrateAll({ env }: { env: Record<string, string> }): Promise<void> {
  await Promise.all(
    SERVICES.map(
      (service) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [entry(service), 'migrate'], {
            cwd: ROOT,
            env: { ...process.env, ...env, LOG_FORMAT: 'json' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`Migrating ${service} failed (exit ${code}):\n${output}`)),
          );
        }),
    ),
  );
}

export interface StackOptions {
  env: Record<string, string>;
  port: number;
  host?: string;
  staticDir?: string;
  /** 'inherit': prefixed lines on this process's output; `{ dir }`: one log file per app. */
  output?: 'inherit' | { dir: string };
  readyTimeoutMs?: number;
  nodeArgs?: string[];
  /** Generation worker processes beside generation's request side (default 1). */
  generationWorkers?: number;
}

export interface Stack {
  url: string;
  /** Kills one app (SIGKILL: no chance to clean up, as in a crash) and starts it again. */
  crashAndRestart(app: App): Promise<void>;
  /** Kills one app with SIGKILL and leaves it down. */
  crash(app: App): Promise<void>;
  /** Stops the gateway first (no new work), then the services; SIGKILL after the grace period. */
  stop(graceMs?: number): Promise<void>;
  children: Map<App, ChildProcess>;
}

function forwardLines(stream: Readable, target: Writable, prefix: string): void {
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) target.write(`${prefix}${line}\n`);
  });
}

/** Starts the services and the gateway and waits until the gateway reports every service ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const host = options.host ?? '127.0.0.1';
  const children = new Map<App, ChildProcess>();
  const exited = new Set<App>();
  let stopping = false;

  const launchEnv = new Map<App, Record<string, string>>();
  const launch = (app: App, extraEnv: Record<string, string>) => {
    launchEnv.set(app, extraEnv);
    exited.delete(app);
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry(app)], {
      cwd: ROOT,
      env: { ...process.env, ...options.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (options.output && options.output !== 'inherit') {
      const file = createWriteStream(join(options.output.dir, `${app}.log`), { flags: 'a' });
      child.stdout.pipe(file);
      child.stderr.pipe(file);
    } else {
      const prefix = `${`[${app}]`.padEnd(12)} `;
      forwardLines(child.stdout, process.stdout, prefix);
      forwardLines(child.stderr, process.stderr, prefix);
    }
    child.on('exit', (code, signal) => {
      if (children.get(app) !== child) return;
      exited.add(app);
      if (!stopping) process.stderr.write(`[${app}] exited unexpectedly (${signal ?? `code ${code}`})\n`);
    });
    children.set(app, child);
  };

  // The gateway streams image bytes to media's HTTP port, so that one port is known up front.
  const mediaPort = await freePort();
  for (const service of SERVICES) {
    launch(service, {
      HTTP_HOST: host,
      HTTP_PORT: service === 'media' ? String(mediaPort) : '0',
      // Requests here, jobs in the worker processes: the topology of a cluster.
      ...(service === 'generation' ? { GENERATION_ROLE: 'api' } : {}),
    });
  }
  const workers: WorkerApp[] = Array.from(
    { length: options.generationWorkers ?? 1 },
    (_, index) => `generation-worker-${index + 1}` as const,
  );
  for (const worker of workers) launch(worker, { HTTP_HOST: host, HTTP_PORT: '0', GENERATION_ROLE: 'worker' });
  launch('gateway', {
    HOST: host,
    PORT: String(options.port),
    MEDIA_URL: `http://${host}:${mediaPort}`,
    ...(options.staticDir ? { STATIC_DIR: options.staticDir } : {}),
  });

  const url = `http://${host}:${options.port}`;
  const stop = async (graceMs = 15_000) => {
    stopping = true;
    for (const app of ['gateway', ...workers, ...SERVICES] as App[]) {
      const child = children.get(app);
      if (!child || exited.has(app)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
  };

  const crash = async (app: App) => {
    const child = children.get(app);
    if (child && !exited.has(app)) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
  };

  const crashAndRestart = async (app: App) => {
    await crash(app);
    launch(app, launchEnv.get(app) ?? {});
    await waitUntilReady();
  };

  const waitUntilReady = async () => {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    let last = 'no answer';
    while (Date.now() < deadline) {
      if (exited.size > 0) throw new Error(`${[...exited].join(', ')} exited during start-up`);
      try {
        const response = await fetch(`${url}/readyz`);
        last = `${response.status} ${await response.text()}`;
        if (response.ok) return;
      } catch (error) {
        last = (error as Error).message;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`The stack did not become ready at ${url}: ${last}`);
  };

  try {
    await waitUntilReady();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop, crash, crashAndRestart, children };
}
