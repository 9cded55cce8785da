import type { ServiceConfig } from '../config/config.js';
import { DataSource, type DataSourceOptions, type MixedList, type QueryRunner } from 'typeorm';
import { DeadLetter } from '../events/dead-letter.entity.js';
import { InboxMessage } from '../events/inbox-message.entity.js';
import { OutboxMessage } from '../events/outbox-message.entity.js';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own Postgres schema; no service reads another's. */
  schema: string;
  entities: MixedList<Function>;
  migrations: MixedList<Function>;
  poolSize?: number;
  applicationName?: string;
}

/** TypeORM options of a service: its own schema, `synchronize` off, migrations explicit. */
export function serviceDataSourceOptions(options: ServiceDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: [...(options.entities as Function[]), OutboxMessage, InboxMessage, DeadLetter],
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL 13+: no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    migrationsRun: false,
    logging: false,
    extra: { max: options.poolSize ?? 10, application_name: options.applicationName ?? options.schema },
  };
}

/**
 * Creates the schema if needed and runs pending migrations, holding an advisory lock so that
 * replicas started together migrate once. Returns the names of the migrations it ran.
 */
export async function runMigrations(options: DataSourceOptions & { schema?: string }): Promise<string[]> {
  const schema = options.schema;
  if (!schema) throw new Error('A service data source needs a schema');
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await ensureSchema(runner, schema);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}

/**
 * A service's own role finds its schema made for it (`bootstrapServiceRoles`) and may create no
 * other, not even with IF NOT EXISTS, which asks for CREATE on the database first; a superuser
 * (local runs, tests) gets it created here.
 */
async function ensureSchema(runner: QueryRunner, schema: string): Promise<void> {
  const [found] = (await runner.query(
    `SELECT has_schema_privilege(oid, 'CREATE') AS writable FROM pg_namespace WHERE nspname = $1`,
    [schema],
  )) as { writable: boolean }[];
  if (found?.writable) return;
  const [{ role, mayCreate }] = (await runner.query(
    `SELECT current_user AS role, has_database_privilege(current_database(), 'CREATE') AS "mayCreate"`,
  )) as [{ role: string; mayCreate: boolean }];
  if (found || !mayCreate) {
    throw new Error(
      `Role ${role} ${found ? `may not create tables in schema ${schema}` : `may not create schema ${schema}`}: ` +
        'run the database bootstrap (npm run db:roles, deploy/README.md) as an administrator first',
    );
  }
  await runner.query(`CREATE SCHEMA "${schema}"`);
}

/** The SQL the entities imply beyond what the migrations created: empty when nothing drifted. */
export async function pendingSchemaChanges(options: DataSourceOptions): Promise<string[]> {
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  try {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return sql.upQueries.map((query) => query.query);
  } finally {
    await dataSource.destroy();
  }
}

export type ServiceDatabase = (
  config: Pick<ServiceConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>,
) => DataSourceOptions & { schema: string };

/** Names a service's schema, entities and migrations once; the config supplies the server. */
export function defineServiceDatabase(
  options: Omit<ServiceDatabaseOptions, 'url' | 'poolSize' | 'applicationName'>,
): ServiceDatabase {
  return (config) => ({
    ...serviceDataSourceOptions({
      ...options,
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      applicationName: `likeness-${options.schema}`,
    }),
    schema: options.schema,
  });
}
