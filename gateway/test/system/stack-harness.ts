import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { errorBodySchema } from '@likeness/contracts';
import { join } from 'node:path';
import pg from 'pg';
import {
  type AppEnv,
  type AppExit,
  ROOT,
  type Stack,
  type StackOptions,
  type TestDatabase,
  createTestDatabase,
  freePort,
  migrateAll,
  startStack,
  tempDir,
  testNamespace,
  testNatsUrl,
} from '@likeness/testing';

export interface RunningStack extends Stack {
  databaseUrl: string;
  /** The environment every app got (namespace, DATA_DIR, secrets...). */
  env: Record<string, string>;
  logDir: string;
  /** Everything an app has logged so far. */
  logOf(app: string): string;
  /**
   * What went wrong with the apps' processes so far, with the end of each culprit's log, or
   * undefined: an exit nobody asked for (`crash`, `crashAndRestart`, `expectExit` and `stop`
   * ask), or a crash in a log (an uncaught exception, an unhandled rejection or 'error' event).
   */
  crashReport(): string | undefined;
  /** Stops every app and drops the database; fails (and with it the suite) when `crashReport()` has something. */
  shutdown(): Promise<Map<string, { code: number | null; signal: NodeJS.Signals | null }>>;
}

/**
 * What Node writes when it ends a process over an error nobody handled, as whole lines: a JSON
 * log line quoting such words (a user's input, say) is never one.
 */
const CRASH_MARKERS = [
  /^Node\.js v\d+\.\d+\.\d+$/m,
  /^\s*throw er; \/\/ Unhandled 'error' event$/m,
  /^\s*code: 'ERR_UNHANDLED_REJECTION'$/m,
  /^\[UnhandledPromiseRejection: /m,
];
const LOG_TAIL_LINES = 40;

/** The whole product from its built apps, on a fresh database and its own NATS namespace. */
export async function startTestStack(
  env: Record<string, string> = {},
  options: {
    generationWorkers?: number;
    /** Processes of a service beyond the first (`{ billing: 2 }`: billing and billing-2). */
    replicas?: StackOptions['replicas'];
    appEnv?: AppEnv;
    database?: TestDatabase;
    /** The gateway's port, when the apps must know it beforehand (as PUBLIC_URL). */
    port?: number;
    /** The built SPA to serve (a test that redeploys it passes a copy); frontend/dist by default. */
    staticDir?: string;
  } = {},
): Promise<RunningStack> {
  const database = options.database ?? (await createTestDatabase('system'));
  const logDir = tempDir('stack-logs');
  const stackEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    DATABASE_URL: database.url,
    NATS_URL: testNatsUrl(),
    NATS_NAMESPACE: testNamespace('sys'),
    JWT_SECRET: 'system-test-secret-system-test-secret-42',
    MEDIA_SECRET: 'system-test-media-secret-media-secret-42',
    DATA_DIR: tempDir('stack-data'),
    ...env,
  };
  await migrateAll({ env: stackEnv, ...(options.appEnv ? { appEnv: options.appEnv } : {}) });
  const staticDir = options.staticDir ?? join(ROOT, 'frontend/dist');
  const stack = await startStack({
    env: stackEnv,
    port: options.port ?? (await freePort()),
    staticDir: existsSync(join(staticDir, 'index.html')) ? staticDir : undefined,
    output: { dir: logDir },
    ...(options.generationWorkers ? { generationWorkers: options.generationWorkers } : {}),
    ...(options.replicas ? { replicas: options.replicas } : {}),
    ...(options.appEnv ? { appEnv: options.appEnv } : {}),
  });
  const logOf = (app: string) => {
    const file = join(logDir, `${app}.log`);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  return {
    ...stack,
    databaseUrl: database.url,
    env: stackEnv,
    logDir,
    logOf,
    crashReport: () => crashReport(stack.unexpectedExits(), stack.children.keys(), logOf),
    shutdown: async () => {
      await stack.stop();
      const exits = new Map(
        [...stack.children].map(([app, child]) => [app, { code: child.exitCode, signal: child.signalCode }]),
      );
      await database.drop();
      const crashes = crashReport(stack.unexpectedExits(), stack.children.keys(), logOf);
      if (crashes) throw new Error(crashes);
      return exits;
    },
  };
}

/** Rows of one query on a database of the stack's (a connection of its own, closed after). */
export async function queryDatabase<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * What went wrong with a stack's processes: exits nobody asked for, and the apps whose logs hold
 * a crash, each with the end of its log; undefined when nothing did.
 */
export function crashReport(
  exits: readonly AppExit[],
  apps: Iterable<string>,
  logOf: (app: string) => string,
): string | undefined {
  const crashed = [...apps].filter((app) => CRASH_MARKERS.some((marker) => marker.test(logOf(app))));
  if (exits.length === 0 && crashed.length === 0) return undefined;
  const lines = [
    ...exits.map(({ app, code, signal }) => `${app} exited unexpectedly (${signal ?? `code ${code}`})`),
    ...crashed.map((app) => `${app} logged a crash (an uncaught exception, an unhandled rejection or 'error' event)`),
  ];
  for (const app of new Set([...exits.map((exit) => exit.app), ...crashed])) {
    lines.push(`--- the end of ${app}'s log ---`, ...logOf(app).trimEnd().split('\n').slice(-LOG_TAIL_LINES));
  }
  return lines.join('\n');
}

/** An HTTP error as clients must see it: the status, the contract's body, and no internals. */
export function expectError(
  result: { status: number; json?: unknown; text: string },
  status: number,
  code: string,
  message?: string | RegExp,
): void {
  expect(result.status).toBe(status);
  const body = errorBodySchema.parse(result.json);
  expect(body.code).toBe(code);
  if (message) expect(body.message).toMatch(message);
  // No stack traces or internals ever leave the server.
  expect(result.text).not.toMatch(/\bat .+\(|node_modules|\.ts:\d+|QueryFailedError|Error:/);
}

/**
 * Sends only the headers of a request that declares a body of `bytes` bytes, and reads the answer.
 * A server refusing the body from its declared length answers and closes the connection; sending
 * the body first would race that close (EPIPE or a reset that eats the answer), so none is sent.
 */
export function callDeclaringBody(
  url: string,
  path: string,
  bytes: number,
  headers: Record<string, string>,
): Promise<{ status: number; json?: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(bytes) },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = response.headers['content-type']?.includes('application/json') ?? false;
        resolve({ status: response.statusCode ?? 0, text, json: isJson && text ? JSON.parse(text) : undefined });
        request.destroy();
      });
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}
