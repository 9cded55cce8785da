import type { ServiceConfig } from '../config/config.js';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
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
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
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
