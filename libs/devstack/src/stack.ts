// Runs the whole product from the built apps: the six services, the generation workers and the
// gateway as child processes, restarted when they crash if asked. Used by the supervisor of
// `npm start` and `npm run dev` (./supervisor.ts) and, through libs/testing, by the system and
// browser tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { type WriteStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { freePort } from './free-port.js';
import { CrashCounter, DEFAULT_RESTART_POLICY, type RestartPolicy, formatDelay } from './restart-policy.js';

/** The repository's root (this file lives in libs/devstack/{src,dist}). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SERVICES = ['auth', 'billing', 'media', 'training', 'generation', 'reporting'] as const;
export type Service = (typeof SERVICES)[number];
/** A generation worker process: `generation-worker-<n>`, from 1. */
export type WorkerApp = `generation-worker-${number}`;
/** Another gateway beside the first (replicas behind one load balancer): `gateway-<n>`, from 2. */
export type GatewayReplica = `gateway-${number}`;
/** A service's second and further replicas: `billing-2`, `billing-3`... */
export type ReplicaApp = `${Service}-${number}`;
export type App = Service | 'gateway' | GatewayReplica | WorkerApp | ReplicaApp;

const isWorker = (app: App): app is WorkerApp => app.startsWith('generation-worker-');
const isGateway = (app: App): app is 'gateway' | GatewayReplica => app === 'gateway' || app.startsWith('gateway-');

/** The app whose build and settings a process runs: a worker or a replica runs its service's. */
const programOf = (app: App): Service | 'gateway' => {
  if (isWorker(app)) return 'generation';
  if (isGateway(app)) return 'gateway';
  const replica = /^([a-z]+)-\d+$/.exec(app)?.[1];
  return (SERVICES as readonly string[]).includes(replica ?? '') ? (replica as Service) : (app as Service);
};

const entry = (app: App) => {
  const program = programOf(app);
  return join(ROOT, program === 'gateway' ? 'gateway/dist/main.js' : `services/${program}/dist/main.js`);
};

/** Settings for one app only, over the shared ones (e.g. a service's own database role). */
export type AppEnv = Partial<Record<string, Record<string, string>>>;

/** Runs every service's migrations (each in its own schema, so in parallel). */
export async function migrateAll({
  env,
  signal,
  appEnv = {},
}: {
  env: Record<string, string>;
  signal?: AbortSignal;
  appEnv?: AppEnv;
}): Promise<void> {
  await Promise.all(
    SERVICES.map(
      (service) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [entry(service), 'migrate'], {
            cwd: ROOT,
            env: { ...process.env, ...env, ...appEnv[service], LOG_FORMAT: 'json' },
            stdio: ['ignore', 'pipe', 'pipe'],
            signal,
          });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('error', reject);
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
  /**
   * Processes of a service (default 1), sharing its queue group, outbox and consumers as replicas
   * in a cluster do: `{ billing: 2 }` runs `billing` and `billing-2`. Media's second replicas
   * answer NATS only (the gateway streams images to the first one's HTTP port).
   */
  replicas?: Partial<Record<Service, number>>;
  /**
   * Restarts an app that exits once the stack is up, after a delay that doubles with each crash in
   * a row (`npm start`). Off by default: tests crash apps on purpose and bring them back themselves.
   * An app that exits during start-up fails the start either way.
   */
  restart?: boolean | Partial<RestartPolicy>;
  /** Where the stack reports its apps' exits and restarts (default: stderr). */
  log?: (line: string) => void;
  /** Aborted during start-up: stops what started and rejects. */
  signal?: AbortSignal;
  /** Settings for one app only (generation's workers read generation's, then `generation-worker`'s). */
  appEnv?: AppEnv;
}

/** How an app's process ended. */
export interface AppExit {
  app: App;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Stack {
  url: string;
  /** Kills one app (SIGKILL: no chance to clean up, as in a crash) and starts it again. */
  crashAndRestart(app: App): Promise<void>;
  /** Kills one app with SIGKILL and leaves it down (whatever the restart policy). */
  crash(app: App): Promise<void>;
  /** Starts an app left down by `crash` again, as it was launched, and waits until the stack is ready. */
  start(app: App): Promise<void>;
  /**
   * Starts one more gateway on the same services, NATS and secrets (a replica behind the same load
   * balancer) on a port of its own, and resolves with its name and URL once it is ready. It stops
   * with the stack.
   */
  addGateway(): Promise<{ app: GatewayReplica; url: string }>;
  /**
   * Stops the gateways first (no new work), then the generation workers, then the services; each
   * gets SIGTERM and, after the grace period, SIGKILL. Nothing is restarted from then on.
   */
  stop(graceMs?: number): Promise<void>;
  /**
   * Says that the app's running process is about to end on purpose (a test sending it a signal
   * of its own): its exit is then neither restarted nor counted among `unexpectedExits()`.
   */
  expectExit(app: App): void;
  /**
   * Every exit nobody asked for, oldest first: a crash, or an app ending by itself, while the
   * stack ran. `crash`, `crashAndRestart`, `expectExit` and `stop` ask for theirs.
   */
  unexpectedExits(): AppExit[];
  /** Each app's process (the newest, once restarted). */
  children: Map<App, ChildProcess>;
}

interface Restarts {
  crashes: CrashCounter;
  timer?: NodeJS.Timeout;
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

/** How much of an app's last output a start-up failure quotes. */
const TAIL_CHARS = 4_000;

/** Starts the services and the gateway and waits until the gateway reports every service ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const policy: RestartPolicy | undefined = options.restart
    ? { ...DEFAULT_RESTART_POLICY, ...(options.restart === true ? {} : options.restart) }
    : undefined;
  const children = new Map<App, ChildProcess>();
  const exited = new Set<App>();
  const launchEnv = new Map<App, Record<string, string>>();
  const startedAt = new Map<App, number>();
  const restarts = new Map<App, Restarts>();
  /** Processes killed on purpose (crash, crashAndRestart): their exit is not a crash to restart. */
  const killedOnPurpose = new WeakSet<ChildProcess>();
  const unexpected: AppExit[] = [];
  let started = false;
  let stopping = false;
  /** The end of what each app printed, for the error when one dies before the stack is up. */
  const tails = new Map<App, string>();
  const keepTail = (app: App, child: ChildProcess) => {
    tails.set(app, '');
    const keep = (chunk: Buffer) => tails.set(app, ((tails.get(app) ?? '') + chunk.toString()).slice(-TAIL_CHARS));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  };

  const launch = (app: App, extraEnv: Record<string, string>) => {
    launchEnv.set(app, extraEnv);
    exited.delete(app);
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry(app)], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...options.env,
        ...options.appEnv?.[programOf(app)],
        // The workers' own settings (their NATS user) over generation's.
        ...(isWorker(app) ? options.appEnv?.['generation-worker'] : {}),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    keepTail(app, child);
    if (options.output && options.output !== 'inherit') {
      appendOutput(child, join(options.output.dir, `${app}.log`), (error) =>
        log(`[${app}] its log file failed: ${error.message}`),
      );
    } else {
      const prefix = `${`[${app}]`.padEnd(12)} `;
      forwardLines(child.stdout, process.stdout, prefix);
      forwardLines(child.stderr, process.stderr, prefix);
    }
    child.on('exit', (code, signal) => {
      if (children.get(app) !== child) return;
      exited.add(app);
      if (stopping || killedOnPurpose.has(child)) return;
      unexpected.push({ app, code, signal });
      const how = signal ?? `code ${code}`;
      // Before the stack is up an exit fails the start: a broken configuration shows at once.
      if (!policy || !started) {
        log(`[${app}] exited unexpectedly (${how})`);
        return;
      }
      scheduleRestart(app, policy, how);
    });
    children.set(app, child);
    startedAt.set(app, Date.now());
  };

  const scheduleRestart = (app: App, policy: RestartPolicy, how: string) => {
    const state = restarts.get(app) ?? { crashes: new CrashCounter(policy) };
    restarts.set(app, state);
    const delay = state.crashes.crashed(Date.now() - (startedAt.get(app) ?? 0));
    log(`[${app}] exited unexpectedly (${how}); restarting in ${formatDelay(delay)} (restart ${state.crashes.total})`);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (!stopping) launch(app, launchEnv.get(app) ?? {});
    }, delay);
  };

  // The gateway streams image bytes to media's HTTP port, so that one port is known up front.
  const mediaPort = await freePort();
  const serviceApps: (Service | ReplicaApp)[] = [];
  for (const service of SERVICES) {
    for (let replica = 1; replica <= (options.replicas?.[service] ?? 1); replica += 1) {
      const app = replica === 1 ? service : (`${service}-${replica}` as const);
      serviceApps.push(app);
      launch(app, {
        HTTP_HOST: host,
        HTTP_PORT: app === 'media' ? String(mediaPort) : '0',
        // Requests here, jobs in the worker processes: the topology of a cluster.
        ...(service === 'generation' ? { GENERATION_ROLE: 'api' } : {}),
      });
    }
  }
  const workers: WorkerApp[] = Array.from(
    { length: options.generationWorkers ?? 1 },
    (_, index) => `generation-worker-${index + 1}` as const,
  );
  for (const worker of workers) launch(worker, { HTTP_HOST: host, HTTP_PORT: '0', GENERATION_ROLE: 'worker' });
  const gatewayEnv = (port: number) => ({
    HOST: host,
    PORT: String(port),
    MEDIA_URL: `http://${host}:${mediaPort}`,
    ...(options.staticDir ? { STATIC_DIR: options.staticDir } : {}),
  });
  launch('gateway', gatewayEnv(options.port));
  const gatewayReplicas: GatewayReplica[] = [];

  const url = `http://${host}:${options.port}`;

  const stopApp = (app: App, graceMs: number) =>
    new Promise<void>((resolve) => {
      const child = children.get(app);
      if (!child || exited.has(app)) return resolve();
      const timer = setTimeout(() => {
        log(`[${app}] did not stop within ${formatDelay(graceMs)}; killing it`);
        child.kill('SIGKILL');
      }, graceMs);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code !== 0) log(`[${app}] stopped with ${signal ?? `code ${code}`}`);
        resolve();
      });
      child.kill('SIGTERM');
    });

  const stop = async (graceMs = 15_000) => {
    stopping = true;
    for (const state of restarts.values()) clearTimeout(state.timer);
    // Workers finish their jobs through the services, so the services stop last.
    await Promise.all(['gateway' as const, ...gatewayReplicas].map((gateway) => stopApp(gateway, graceMs)));
    await Promise.all(workers.map((worker) => stopApp(worker, graceMs)));
    await Promise.all(serviceApps.map((app) => stopApp(app, graceMs)));
  };

  const expectExit = (app: App) => {
    const child = children.get(app);
    if (child) killedOnPurpose.add(child);
  };

  const crash = async (app: App) => {
    clearTimeout(restarts.get(app)?.timer);
    const child = children.get(app);
    if (child && !exited.has(app)) {
      killedOnPurpose.add(child);
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
  };

  const start = async (app: App) => {
    if (children.has(app) && !exited.has(app)) throw new Error(`${app} is already running`);
    launch(app, launchEnv.get(app) ?? {});
    await waitUntilReady();
  };

  const addGateway = async () => {
    const app: GatewayReplica = `gateway-${gatewayReplicas.length + 2}`;
    const port = await freePort();
    gatewayReplicas.push(app);
    launch(app, gatewayEnv(port));
    const replicaUrl = `http://${host}:${port}`;
    await waitUntilReady(replicaUrl);
    return { app, url: replicaUrl };
  };

  const crashAndRestart = async (app: App) => {
    await crash(app);
    await start(app);
  };

  /** Waits until the gateway at `gatewayUrl` reports every service ready. */
  const waitUntilReady = async (gatewayUrl = url) => {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    let last = 'no answer';
    while (Date.now() < deadline) {
      options.signal?.throwIfAborted();
      if (exited.size > 0) {
        const ends = [...exited].map((app) => `--- the end of ${app}'s output ---\n${tails.get(app)?.trimEnd() ?? ''}`);
        throw new Error([`${[...exited].join(', ')} exited during start-up`, ...ends].join('\n'));
      }
      try {
        const response = await fetch(`${gatewayUrl}/readyz`);
        last = `${response.status} ${await response.text()}`;
        if (response.ok) return;
      } catch (error) {
        last = (error as Error).message;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`The stack did not become ready at ${gatewayUrl}: ${last}`);
  };

  try {
    await waitUntilReady();
  } catch (error) {
    await stop();
    throw error;
  }
  started = true;
  return {
    url,
    stop,
    crash,
    start,
    crashAndRestart,
    addGateway,
    expectExit,
    unexpectedExits: () => [...unexpected],
    children,
  };
}

/**
 * Appends a child's stdout and stderr to one file. Neither pipe may end the file (stderr can still
 * have lines after stdout has ended, and a write after the end would be an unhandled error that
 * stops this process), so it ends once both of the child's streams have closed.
 */
export function appendOutput(
  child: Pick<ChildProcess, 'stdout' | 'stderr' | 'once'>,
  path: string,
  onError: (error: Error) => void,
): WriteStream {
  const file = createWriteStream(path, { flags: 'a' });
  file.on('error', onError);
  child.stdout?.pipe(file, { end: false });
  child.stderr?.pipe(file, { end: false });
  child.once('close', () => file.end());
  return file;
}
