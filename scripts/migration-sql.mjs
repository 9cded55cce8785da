#!/usr/bin/env node
// Prints the SQL a service's entities imply beyond its migrations: the body of the next
// migration to write. Usage: node scripts/migration-sql.mjs <service> (after `npm run build`).
// Uses DATABASE_URL's server, in a scratch database it drops afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const service = process.argv[2];
if (!service) {
  console.error('usage: node scripts/migration-sql.mjs <service>');
  process.exit(2);
}
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `likeness_migration_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const kit = await import('../libs/nest-kit/dist/index.js');
  const { [`${service}Database`]: database } = await import(
    `../services/${service}/dist/database/${service}-database.js`
  );
  const options = database({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: 2 });
  await kit.runMigrations(options);
  const pending = await kit.pendingSchemaChanges(options);
  console.log(pending.length ? pending.map((sql) => `${sql};`).join('\n') : '-- nothing to migrate');
} finally {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
