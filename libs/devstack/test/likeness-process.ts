// `npm start` as its users run it: `node scripts/start.mjs` (from the build: --skip-build), its
// processes read from /proc. Databases and NATS namespaces of its own on the test run's servers,
// unless a test asks for the embedded PostgreSQL and nats-server.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../src/free-port.js';
import { ROOT } from '../src/stack.js';

export interface LikenessProcess {
  pid: number;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills what is left (a test that failed half-way) and removes its data. */
  cleanup(): Promise<void>;
}

/** Starts `npm start` from the build and waits until the gateway says every service is ready. */
export async function startLikeness({ embedded = false } = {}): Promise<LikenessProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'likeness-devstack-'));
  // As root, the embedded PostgreSQL runs as a user of its own, who must reach its directory.
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env['DATABASE_URL'];
  delete env['NATS_URL'];
  let dropDatabase = async () => undefined as unknown;
  if (!embedded) {
    const adminUrl = required('LIKENESS_TEST_DATABASE_URL');
    const database = `likeness_devstack_${randomBytes(4).toString('hex')}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${database}"`));
    dropDatabase = () =>
      withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    env['DATABASE_URL'] = url.toString();
    env['NATS_URL'] = required('LIKENESS_TEST_NATS_URL');
    env['NATS_NAMESPACE'] = `devstack${randomBytes(4).toString('hex')}`;
  }

  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--skip-build'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const likeness: LikenessProcess = {
    pid: child.pid!,
    url,
    output: () => output,
    exited,
    cleanup: async () => {
      for (const process of descendantsOf(child.pid!)) kill(process.pid, 'SIGKILL');
      kill(child.pid!, 'SIGKILL');
      await dropDatabase().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 150_000;
  // The supervisor says it is running once its stack is up (only then does it restart crashes);
  // the gateway may answer /readyz a moment before.
  while (!output.includes('Likeness is running at') || !(await isReady(url))) {
    const failure =
      child.exitCode !== null
        ? `npm start exited (code ${child.exitCode})`
        : Date.now() > deadline
          ? 'npm start was not ready in time'
          : undefined;
    if (failure) {
      await likeness.cleanup();
      throw new Error(`${failure}:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return likeness;
}

export async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`)).ok;
  } catch {
    return false;
  }
}

export interface ProcessInfo {
  pid: number;
  command: string;
}

/** Every process below `root` (children, theirs, ...), from /proc. */
export function descendantsOf(root: number): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(Number(entry), 'stat');
    if (!stat) continue;
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue;
    const command = (readProc(Number(entry), 'cmdline') ?? '').split('\0').join(' ').trim();
    const siblings = children.get(Number(ppid)) ?? [];
    siblings.push({ pid: Number(entry), command });
    children.set(Number(ppid), siblings);
  }
  const found: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether the process runs (a zombie, dead and waiting to be reaped, does not). */
export function isRunning(pid: number): boolean {
  const stat = readProc(pid, 'stat');
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this test through Jest's system project`);
  return value;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
