import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcClient, connectNats } from '@likeness/nest-kit';
import type { TestDatabase } from './environment.js';
import { createTestDatabase, testNamespace, testNatsUrl } from './environment.js';

/** Settings every in-process test service gets: its own database and subject namespace. */
export interface TestServiceEnvironment {
  database: TestDatabase;
  namespace: string;
  natsUrl: string;
  /** The environment a service's config schema parses. */
  env: Record<string, string>;
}

export async function createTestServiceEnvironment(
  label: string,
  natsUrl = testNatsUrl(),
): Promise<TestServiceEnvironment> {
  const database = await createTestDatabase(label);
  const namespace = testNamespace(label);
  return {
    database,
    namespace,
    natsUrl,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      LOG_FORMAT: 'json',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '5',
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      SHUTDOWN_GRACE_MS: '2000',
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      MEDIA_SECRET: 'test-media-secret-test-media-secret-0123',
      // Files an app writes (the dev mailbox, local objects) stay out of the repository.
      DATA_DIR: tempDir(label),
    },
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `likeness-${prefix}-`));
}

/** A typed RPC client on its own connection, speaking in the given namespace. */
export async function createTestRpcClient(natsUrl: string, namespace: string, timeoutMs = 5_000) {
  const settings = { url: natsUrl, namespace, name: 'test-client' };
  const connection = await connectNats(settings);
  return { rpc: new RpcClient(connection, settings, timeoutMs), connection, close: () => connection.drain() };
}
