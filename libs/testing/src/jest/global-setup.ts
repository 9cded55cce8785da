import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerRuntimeAvailable } from '../containers.js';
import { startEmbeddedPostgres, startNatsServer } from '@likeness/devstack';
import { TEST_DATABASE_URL, TEST_NATS_URL, TEST_RUN } from '../environment.js';

type Stop = () => Promise<unknown>;
const globals = globalThis as typeof globalThis & { __likenessStops?: Stop[] };

/**
 * Finds PostgreSQL and NATS for the whole run, in this order: Testcontainers when a container
 * engine answers; else the servers named by DATABASE_URL / NATS_URL; else an embedded
 * PostgreSQL and a `nats-server` from PATH. Test files read the result from the environment.
 */
export default async function globalSetup(): Promise<void> {
  const stops: Stop[] = [];
  globals.__likenessStops = stops;
  // Every namespace of this run carries the token; the teardown deletes only those streams.
  process.env[TEST_RUN] ??= randomBytes(3).toString('hex');
  const useContainers = process.env['LIKENESS_TEST_CONTAINERS'] !== 'false' && (await containerRuntimeAvailable());

  if (!process.env[TEST_DATABASE_URL]) {
    if (useContainers) {
      const { GenericContainer, Wait } = await import('testcontainers');
      const container = await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      stops.push(() => container.stop());
      process.env[TEST_DATABASE_URL] =
        `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
    } else if (process.env['DATABASE_URL']) {
      process.env[TEST_DATABASE_URL] = process.env['DATABASE_URL'];
    } else {
      const embedded = await startEmbeddedPostgres({
        dataDir: mkdtempSync(join(tmpdir(), 'likeness-pg-')),
        persistent: false,
      });
      stops.push(() => embedded.stop());
      process.env[TEST_DATABASE_URL] = embedded.url;
    }
  }

  if (!process.env[TEST_NATS_URL]) {
    if (useContainers) {
      const { GenericContainer, Wait } = await import('testcontainers');
      const container = await new GenericContainer('nats:2.10-alpine')
        .withCommand(['-js'])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start();
      stops.push(() => container.stop());
      process.env[TEST_NATS_URL] = `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
    } else if (process.env['NATS_URL']) {
      process.env[TEST_NATS_URL] = process.env['NATS_URL'];
    } else {
      const server = await startNatsServer({ storeDir: mkdtempSync(join(tmpdir(), 'likeness-nats-')) });
      stops.push(() => server.stop());
      process.env[TEST_NATS_URL] = server.url;
    }
  }
}
