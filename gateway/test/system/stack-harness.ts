import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { errorBodySchema } from '@likeness/contracts';
import { join } from 'node:path';
import {
  ROOT,
  type Stack,
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
  shutdown(): Promise<Map<string, { code: number | null; signal: NodeJS.Signals | null }>>;
}

/** The whole product from its built apps, on a fresh database and its own NATS namespace. */
export async function startTestStack(
  env: Record<string, string> = {},
  options: { generationWorkers?: number } = {},
): Promise<RunningStack> {
  const database = await createTestDatabase('system');
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
  await migrateAll({ env: stackEnv });
  const staticDir = join(ROOT, 'frontend/dist');
  const stack = await startStack({
    env: stackEnv,
    port: await freePort(),
    staticDir: existsSync(join(staticDir, 'index.html')) ? staticDir : undefined,
    output: { dir: logDir },
    ...options,
  });
  return {
    ...stack,
    databaseUrl: database.url,
    env: stackEnv,
    logDir,
    logOf: (app) => readFileSync(join(logDir, `${app}.log`), 'utf8'),
    shutdown: async () => {
      await stack.stop();
      const exits = new Map(
        [...stack.children].map(([app, child]) => [app, { code: child.exitCode, signal: child.signalCode }]),
      );
      await database.drop();
      return exits;
    },
  };
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
