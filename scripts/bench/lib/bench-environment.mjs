// What every benchmark starts from: a database of its own on DATABASE_URL's server, a NATS
// namespace of its own on NATS_URL, fresh secrets, and a cleanup that removes both.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const { deleteTestStreams } = await import('../../../libs/testing/dist/servers/stream-cleanup.js');

/** @param {string} label  @param {Record<string, string>} extra settings for the apps */
export async function createBenchEnvironment(label, extra = {}) {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const database = `likeness_bench_${randomBytes(4).toString('hex')}`;
  const namespace = `bench${label}${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATABASE_URL: url.toString(),
    NATS_URL: natsUrl,
    NATS_NAMESPACE: namespace,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MEDIA_SECRET: randomBytes(32).toString('hex'),
    // Production settings, with the local stand-ins named (production refuses them unnamed).
    PAYMENTS_PROVIDER: 'local',
    INFERENCE_PROVIDER: 'local',
    ...extra,
  };
  return {
    env,
    natsUrl,
    namespace,
    async cleanup() {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
      await deleteTestStreams(natsUrl, { namespace });
    },
  };
}

/**
 * A whole stack from the build on a bench environment of its own, its database migrated:
 * `generationWorkers` worker processes beside the rest, serving the SPA from `staticDir` if given.
 * @param {string} label  @param {{ dataDir: string, generationWorkers?: number, staticDir?: string, env: Record<string, string> }} options
 */
export async function startBenchStack(label, { dataDir, generationWorkers, staticDir, env }) {
  const { freePort, migrateAll, startStack } = await import('../../../libs/devstack/dist/index.js');
  const bench = await createBenchEnvironment(label, { DATA_DIR: dataDir, ...env });
  try {
    await migrateAll({ env: bench.env });
    const stack = await startStack({
      env: bench.env,
      port: await freePort(),
      output: { dir: dataDir },
      readyTimeoutMs: 180_000,
      ...(generationWorkers ? { generationWorkers } : {}),
      ...(staticDir ? { staticDir } : {}),
    });
    return { bench, stack };
  } catch (error) {
    await bench.cleanup();
    throw error;
  }
}
