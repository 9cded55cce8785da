// The database bootstrap on the real PostgreSQL: each service's role runs that service's real
// migrations and does its work (rows, the outbox's NOTIFY/LISTEN, advisory locks), and is
// refused on every other service's schema and on `public`. Then the upgrade: schemas one shared
// role migrated, as before, handed over to the services' roles with everything in them.
import { randomBytes } from 'node:crypto';
import { AuthEvents, BillingRpc, SERVICE_NAMES, type ServiceName } from '@likeness/contracts';
import {
  bootstrapServiceRoles,
  createServiceApp,
  loadConfig,
  runMigrations,
  scramVerifier,
  type ServiceDatabase,
  type ServiceRole,
} from '@likeness/nest-kit';
import {
  TEST_DATABASE_URL,
  connectEventPublisher,
  createTestRpcClient,
  testNamespace,
  testNatsUrl,
  waitFor,
} from '@likeness/testing';
import pg from 'pg';
import { authDatabase } from '../../services/auth/src/database/auth-database.js';
import { billingConfigSchema } from '../../services/billing/src/billing.config.js';
import { billingService } from '../../services/billing/src/billing.service-definition.js';
import { billingDatabase } from '../../services/billing/src/database/billing-database.js';
import { generationDatabase } from '../../services/generation/src/database/generation-database.js';
import { mediaDatabase } from '../../services/media/src/database/media-database.js';
import { reportingDatabase } from '../../services/reporting/src/database/reporting-database.js';
import { trainingDatabase } from '../../services/training/src/database/training-database.js';

const DATABASES: Record<ServiceName, ServiceDatabase> = {
  auth: authDatabase,
  billing: billingDatabase,
  media: mediaDatabase,
  training: trainingDatabase,
  generation: generationDatabase,
  reporting: reportingDatabase,
};

/** PostgreSQL's insufficient_privilege. */
const PERMISSION_DENIED = '42501';

const adminUrl = () => {
  const url = process.env[TEST_DATABASE_URL];
  if (!url) throw new Error(`${TEST_DATABASE_URL} is not set: run this through Jest's integration project`);
  return url;
};

/** Roles are the server's, not a database's: every name carries this run's token. */
const run = `lk${randomBytes(4).toString('hex')}`;
const createdDatabases: string[] = [];
const createdRoles: string[] = [];
const clients: pg.Client[] = [];

function urlOf(database: string, role?: string, password?: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  if (role) {
    url.username = role;
    url.password = password ?? '';
  }
  return url.toString();
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

async function admin<T extends pg.QueryResultRow>(sql: string, parameters: unknown[] = [], database?: string) {
  const client = new pg.Client({ connectionString: database ? urlOf(database) : adminUrl() });
  await client.connect();
  try {
    return (await client.query<T>(sql, parameters)).rows;
  } finally {
    await client.end();
  }
}

async function createDatabase(label: string, owner?: string): Promise<string> {
  const name = `${run}_${label}`;
  await admin(`CREATE DATABASE "${name}"${owner ? ` OWNER "${owner}"` : ''}`);
  createdDatabases.push(name);
  return name;
}

/** Each service's role in this run, with a password (the server may trust 127.0.0.1 anyway). */
function rolesOf(label: string): ServiceRole[] {
  return SERVICE_NAMES.map((service) => ({
    schema: service,
    role: `${run}_${label}_${service}`,
    password: `pw-${randomBytes(8).toString('hex')}`,
  }));
}

const migrateAs = (database: string, { schema, role, password }: ServiceRole) =>
  runMigrations(
    DATABASES[schema as ServiceName]({ DATABASE_URL: urlOf(database, role, password), DATABASE_POOL_SIZE: 2 }),
  );

/** What a failed statement's error code was, or `ok`. */
async function outcome(client: pg.Client, sql: string): Promise<string> {
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Objects in a schema that its service's role does not own. */
const foreignObjects = (database: string, { schema, role }: ServiceRole) =>
  admin<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relowner <> $2::regrole
     UNION ALL
     SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typowner <> $2::regrole`,
    [schema, role],
    database,
  );

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  for (const database of createdDatabases) await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  for (const role of createdRoles) await admin(`DROP ROLE IF EXISTS "${role}"`);
});

describe('bootstrapServiceRoles on a fresh database', () => {
  const roles = rolesOf('svc');
  let database: string;
  let firstRun: Awaited<ReturnType<typeof bootstrapServiceRoles>>;
  let secondRun: Awaited<ReturnType<typeof bootstrapServiceRoles>>;
  const migrated = new Map<string, string[]>();
  const sessions = new Map<string, pg.Client>();

  beforeAll(async () => {
    createdRoles.push(...roles.map(({ role }) => role));
    database = await createDatabase('fresh');
    firstRun = await bootstrapServiceRoles(urlOf(database), roles);
    secondRun = await bootstrapServiceRoles(urlOf(database), roles);
    for (const role of roles) migrated.set(role.schema, await migrateAs(database, role));
    for (const role of roles) sessions.set(role.schema, await connect(urlOf(database, role.role, role.password)));
  });

  const session = (schema: string) => sessions.get(schema)!;

  it('should create a role and a schema it owns for every service, once', async () => {
    expect(firstRun).toEqual({
      createdRoles: roles.map(({ role }) => role),
      passwordsSet: roles.map(({ role }) => role),
      createdSchemas: [...SERVICE_NAMES],
      takenOverSchemas: [],
    });
    expect(secondRun).toEqual({ ...firstRun, createdRoles: [], createdSchemas: [] });
    const owners = await admin<{ schema: string; owner: string }>(
      `SELECT nspname AS schema, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname`,
      [[...SERVICE_NAMES]],
      database,
    );
    expect(owners).toEqual(
      roles.map(({ schema, role }) => ({ schema, owner: role })).sort((a, b) => a.schema.localeCompare(b.schema)),
    );
  });

  it('should give the roles a login and a password, and nothing more', async () => {
    const attributes = await admin(
      `SELECT rolname, rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls,
              rolpassword LIKE 'SCRAM-SHA-256$%' AS "hasPassword"
         FROM pg_authid WHERE rolname = ANY($1) ORDER BY rolname`,
      [roles.map(({ role }) => role)],
    );
    expect(attributes).toEqual(
      roles
        .map(({ role }) => ({
          rolname: role,
          rolcanlogin: true,
          rolsuper: false,
          rolcreatedb: false,
          rolcreaterole: false,
          rolreplication: false,
          rolbypassrls: false,
          hasPassword: true,
        }))
        .sort((a, b) => a.rolname.localeCompare(b.rolname)),
    );
  });

  it('should store the verifier PostgreSQL itself makes of a password, never the password', async () => {
    const probe = `${run}_scram`;
    createdRoles.push(probe);
    await admin(`SET password_encryption = 'scram-sha-256'; CREATE ROLE "${probe}" PASSWORD 'pencil and paper, 42!'`);
    const [{ verifier }] = (await admin<{ verifier: string }>(
      'SELECT rolpassword AS verifier FROM pg_authid WHERE rolname = $1',
      [probe],
    )) as [{ verifier: string }];
    const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(verifier) ?? [];
    expect(scramVerifier('pencil and paper, 42!', Buffer.from(salt ?? '', 'base64'), Number(iterations))).toBe(
      verifier,
    );
  });

  it("should run every service's migrations as its role, leaving it the owner of all it made", async () => {
    for (const role of roles) {
      expect({ schema: role.schema, ran: (migrated.get(role.schema) ?? []).length > 0 }).toEqual({
        schema: role.schema,
        ran: true,
      });
      expect(await foreignObjects(database, role)).toEqual([]);
      // A second run finds nothing to do (the check of the schema passes without CREATE on the database).
      expect(await migrateAs(database, role)).toEqual([]);
    }
  });

  it.each(SERVICE_NAMES)('should let %s write, read and delete its own rows', async (schema) => {
    const [written] = (
      await session(schema).query<{ id: string }>(
        `INSERT INTO "${schema}"."outbox" ("id", "subject", "envelope") VALUES (gen_random_uuid(), 'test.roles', '{}') RETURNING "id"`,
      )
    ).rows;
    const read = await session(schema).query(`SELECT "subject" FROM "${schema}"."outbox" WHERE "id" = $1`, [
      written?.id,
    ]);
    expect(read.rows).toEqual([{ subject: 'test.roles' }]);
    const deleted = await session(schema).query(`DELETE FROM "${schema}"."outbox" WHERE "id" = $1`, [written?.id]);
    expect(deleted.rowCount).toBe(1);
  });

  it.each(SERVICE_NAMES)("should let %s's outbox NOTIFY reach its relay's LISTEN", async (schema) => {
    const role = roles.find((r) => r.schema === schema)!;
    const relay = await connect(urlOf(database, role.role, role.password));
    // The channel the kit's outbox announces commits on (ServiceKitModule: `<schema>_outbox`).
    const channel = `${schema}_outbox`;
    const heard = new Promise<string | undefined>((resolve) =>
      relay.on('notification', (message) => message.channel === channel && resolve(message.payload)),
    );
    await relay.query(`LISTEN "${channel}"`);
    await session(schema).query('SELECT pg_notify($1, $2)', [channel, '3']);
    expect(await heard).toBe('3');
  });

  it.each(SERVICE_NAMES)(
    'should let %s take an advisory lock that its other replicas then wait for',
    async (schema) => {
      const role = roles.find((r) => r.schema === schema)!;
      const replica = await connect(urlOf(database, role.role, role.password));
      const lock = `periodic:${schema}:${run}`;
      const take = async (client: pg.Client) =>
        (
          await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [
            lock,
          ])
        ).rows[0]?.locked;
      expect(await take(session(schema))).toBe(true);
      expect(await take(replica)).toBe(false);
      await session(schema).query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
      expect(await take(replica)).toBe(true);
      await replica.query('SELECT pg_advisory_unlock_all()');
    },
  );

  it.each(SERVICE_NAMES)("should refuse %s every other service's tables", async (schema) => {
    const others = SERVICE_NAMES.filter((other) => other !== schema);
    const attempts = [];
    for (const other of others) {
      attempts.push({
        other,
        read: await outcome(session(schema), `SELECT * FROM "${other}"."outbox"`),
        write: await outcome(
          session(schema),
          `INSERT INTO "${other}"."outbox" ("id", "subject", "envelope") VALUES (gen_random_uuid(), 'x', '{}')`,
        ),
        create: await outcome(session(schema), `CREATE TABLE "${other}"."intruder" ("id" integer)`),
      });
    }
    expect(attempts).toEqual(
      others.map((other) => ({ other, read: PERMISSION_DENIED, write: PERMISSION_DENIED, create: PERMISSION_DENIED })),
    );
  });

  it('should run billing as its role: an event handled through the inbox, its ledger written, its outbox relayed', async () => {
    const role = roles.find((r) => r.schema === 'billing')!;
    const natsUrl = testNatsUrl();
    const namespace = testNamespace('roles');
    const config = loadConfig(billingConfigSchema, {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      LOG_FORMAT: 'json',
      DATABASE_URL: urlOf(database, role.role, role.password),
      DATABASE_POOL_SIZE: '4',
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      HTTP_PORT: '0',
      SHUTDOWN_GRACE_MS: '2000',
    });
    const app = await createServiceApp(billingService, config);
    const client = await createTestRpcClient(natsUrl, namespace);
    const events = await connectEventPublisher(natsUrl, namespace);
    try {
      const registeredAt = new Date().toISOString();
      await events.publish(AuthEvents.UserRegistered, {
        userId: 77,
        username: 'roles',
        email: 'roles@example.com',
        role: 'user',
        registeredAt,
      });
      const balance = await waitFor(
        async () => {
          const answer = await client.rpc.call(BillingRpc.getBalance, { userId: 77 });
          return answer.balance > 0 && answer;
        },
        { what: 'the welcome credits' },
      );
      expect(balance).toMatchObject({ userId: 77, balance: 5, available: 5 });
      // The relay LISTENs as billing's role and marks what it published.
      await waitFor(
        async () => {
          const [row] = await admin<{ written: number; unpublished: number }>(
            `SELECT count(*)::int AS written, count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished
               FROM billing.outbox`,
            [],
            database,
          );
          return row !== undefined && row.written > 0 && row.unpublished === 0;
        },
        { what: "billing's events to be published" },
      );
    } finally {
      await events.close();
      await client.close();
      await app.close();
    }
  });

  it.each(SERVICE_NAMES)('should refuse %s any new object in public and any new schema', async (schema) => {
    expect({
      table: await outcome(session(schema), `CREATE TABLE public."intruder_${schema}" ("id" integer)`),
      view: await outcome(session(schema), `CREATE VIEW public."intruder_${schema}" AS SELECT 1 AS one`),
      schema: await outcome(session(schema), `CREATE SCHEMA "intruder_${schema}"`),
      schemaIfMissing: await outcome(session(schema), `CREATE SCHEMA IF NOT EXISTS "${schema}"`),
    }).toEqual({
      table: PERMISSION_DENIED,
      view: PERMISSION_DENIED,
      schema: PERMISSION_DENIED,
      schemaIfMissing: PERMISSION_DENIED,
    });
    const [privileges] = await admin<{ create: boolean; usage: boolean }>(
      `SELECT has_schema_privilege($1, 'public', 'CREATE') AS "create", has_schema_privilege($1, 'public', 'USAGE') AS usage`,
      [roles.find((r) => r.schema === schema)!.role],
      database,
    );
    // USAGE stays: reporting's indexes use public.gin_trgm_ops from the extension the bootstrap made.
    expect(privileges).toEqual({ create: false, usage: true });
  });
});

describe('bootstrapServiceRoles over schemas one shared role migrated (the upgrade)', () => {
  const roles = rolesOf('up');
  const shared = `${run}_shared`;
  let database: string;
  let report: Awaited<ReturnType<typeof bootstrapServiceRoles>>;
  const rowIds = new Map<string, string>();

  beforeAll(async () => {
    createdRoles.push(shared, ...roles.map(({ role }) => role));
    // As before: one role, the database's owner, migrates and runs every service.
    await admin(`CREATE ROLE "${shared}" LOGIN`);
    database = await createDatabase('upgrade', shared);
    const before = await connect(urlOf(database, shared));
    for (const { schema } of roles) {
      await runMigrations(
        DATABASES[schema as ServiceName]({ DATABASE_URL: urlOf(database, shared), DATABASE_POOL_SIZE: 2 }),
      );
      const [row] = (
        await before.query<{ id: string }>(
          `INSERT INTO "${schema}"."outbox" ("id", "subject", "envelope") VALUES (gen_random_uuid(), 'before', '{}') RETURNING "id"`,
        )
      ).rows;
      rowIds.set(schema, row!.id);
    }
    report = await bootstrapServiceRoles(urlOf(database), roles);
  });

  it('should hand every schema over to its service’s role, with everything in it', async () => {
    expect(report.takenOverSchemas).toEqual([...SERVICE_NAMES]);
    for (const role of roles)
      expect({ schema: role.schema, foreign: await foreignObjects(database, role) }).toEqual({
        schema: role.schema,
        foreign: [],
      });
  });

  it.each(SERVICE_NAMES)('should let %s migrate, read the rows written before and write new ones', async (schema) => {
    const role = roles.find((r) => r.schema === schema)!;
    expect(await migrateAs(database, role)).toEqual([]);
    const client = await connect(urlOf(database, role.role, role.password));
    const before = await client.query(`SELECT "subject" FROM "${schema}"."outbox" WHERE "id" = $1`, [
      rowIds.get(schema),
    ]);
    expect(before.rows).toEqual([{ subject: 'before' }]);
    expect(
      await outcome(
        client,
        `INSERT INTO "${schema}"."outbox" ("id", "subject", "envelope") VALUES (gen_random_uuid(), 'after', '{}')`,
      ),
    ).toBe('ok');
    const other = SERVICE_NAMES.find((name) => name !== schema)!;
    expect(await outcome(client, `SELECT * FROM "${other}"."outbox"`)).toBe(PERMISSION_DENIED);
  });

  it('should refuse to make a service of the administrator or of the database’s owner', async () => {
    const [{ user }] = (await admin<{ user: string }>('SELECT current_user AS "user"')) as [{ user: string }];
    await expect(
      bootstrapServiceRoles(urlOf(database), [{ schema: 'auth', role: shared }, ...roles.slice(1)]),
    ).rejects.toThrow(`${shared} is the owner of database ${database}`);
    await expect(bootstrapServiceRoles(urlOf(database), [{ schema: 'auth', role: user }])).rejects.toThrow(
      `${user} is the administrator running this`,
    );
  });
});
