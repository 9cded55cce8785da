import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { SERVICE_NAMES, type ServiceName } from '@likeness/contracts';
import pg from 'pg';
import { z } from 'zod';
import { baseConfigSchema } from '../config/config.js';

/** A service's own PostgreSQL role: it logs in as it and owns its schema, and nothing else. */
export interface ServiceRole {
  schema: string;
  role: string;
  /** Set on the role, created or not; absent: a role that exists keeps its password. */
  password?: string;
}

/** What one bootstrap changed, for its log. */
export interface ServiceRolesReport {
  createdRoles: string[];
  passwordsSet: string[];
  createdSchemas: string[];
  /** Schemas another role owned (the shared role before this one): they and their objects moved. */
  takenOverSchemas: string[];
}

/**
 * Extensions the services' migrations use, created here by the administrator since the
 * services' roles may not create any: pg_trgm for reporting's username and e-mail search.
 */
export const SERVICE_EXTENSIONS = ['pg_trgm'] as const;

/** Lower-case identifiers only: they are written unquoted in URLs, logs and operators' commands. */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates, or brings up to date, each service's role and schema. Run as a superuser (roles,
 * ownership changes and extensions need it), before the migrations, as often as you like:
 *
 * - a role per service: LOGIN, and nothing more (no superuser, CREATEDB, CREATEROLE,
 *   replication, row-security bypass), with its password when one is given;
 * - its schema, owned by it; a schema another role owns (one role for every service, as before)
 *   is handed over with everything in it, so the service's migrations can go on altering it;
 * - nobody may create anything in `public` (PostgreSQL 15 revokes it already; older servers too);
 * - the extensions the migrations use, in `public`.
 *
 * No role is granted anything on another's schema: services ask each other over NATS.
 * Advisory locks and LISTEN/NOTIFY need no grant.
 */
export async function bootstrapServiceRoles(adminUrl: string, roles: ServiceRole[]): Promise<ServiceRolesReport> {
  const report: ServiceRolesReport = { createdRoles: [], passwordsSet: [], createdSchemas: [], takenOverSchemas: [] };
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'likeness-database-roles' });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Two bootstraps at once (two Jobs, two `compose up`s) take turns.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('likeness:database-roles'))`);
    await refuseUnsafeRoles(client, roles);
    const [{ database }] = (await client.query<{ database: string }>('SELECT current_database() AS database')).rows as [
      { database: string },
    ];
    for (const service of roles) {
      await ensureRole(client, service, database, report);
      await ensureSchema(client, service, report);
    }
    await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    for (const extension of SERVICE_EXTENSIONS) {
      await client.query(`CREATE EXTENSION IF NOT EXISTS ${client.escapeIdentifier(extension)} WITH SCHEMA public`);
    }
    await client.query('COMMIT');
    return report;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * A service role must be the service's alone: not the administrator, not a superuser, not the
 * database's owner (each would lose what it may do, or keep far more than a service needs).
 */
async function refuseUnsafeRoles(client: pg.Client, roles: ServiceRole[]): Promise<void> {
  const names = roles.map((service) => service.role);
  const invalid = names.filter((name) => !ROLE_NAME.test(name));
  if (invalid.length > 0) throw new Error(`Role names must match ${ROLE_NAME.source}: ${invalid.join(', ')}`);
  const shared = names.filter((name, index) => names.indexOf(name) !== index);
  if (shared.length > 0) throw new Error(`Each service needs its own role; shared: ${[...new Set(shared)].join(', ')}`);
  const { rows } = await client.query<{ name: string; reason: string }>(
    `SELECT r.rolname AS name,
            CASE WHEN r.rolname = current_user THEN 'the administrator running this'
                 WHEN r.rolsuper THEN 'a superuser'
                 ELSE 'the owner of database ' || current_database() END AS reason
       FROM pg_roles r
      WHERE r.rolname = ANY($1)
        AND (r.rolname = current_user OR r.rolsuper
             OR r.oid = (SELECT datdba FROM pg_database WHERE datname = current_database()))`,
    [names],
  );
  if (rows.length > 0) {
    throw new Error(
      `A service's role must be its own: ${rows.map((row) => `${row.name} is ${row.reason}`).join('; ')}`,
    );
  }
}

async function ensureRole(
  client: pg.Client,
  service: ServiceRole,
  database: string,
  report: ServiceRolesReport,
): Promise<void> {
  const role = client.escapeIdentifier(service.role);
  const exists = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [service.role])).rowCount === 1;
  const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
  // Hashed here, as psql's \password does: the password itself never reaches the server or its logs.
  const password =
    service.password === undefined ? '' : ` PASSWORD ${client.escapeLiteral(scramVerifier(service.password))}`;
  await client.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${role} ${attributes}${password}`);
  if (!exists) report.createdRoles.push(service.role);
  if (service.password !== undefined) report.passwordsSet.push(service.role);
  // PUBLIC has CONNECT unless someone revoked it; the service needs it either way.
  await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(database)} TO ${role}`);
}

async function ensureSchema(client: pg.Client, service: ServiceRole, report: ServiceRolesReport): Promise<void> {
  const schema = client.escapeIdentifier(service.schema);
  const role = client.escapeIdentifier(service.role);
  const { rows } = await client.query<{ owner: string }>(
    'SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1',
    [service.schema],
  );
  if (rows.length === 0) {
    await client.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${role}`);
    report.createdSchemas.push(service.schema);
    return;
  }
  if (rows[0]?.owner !== service.role) {
    await client.query(`ALTER SCHEMA ${schema} OWNER TO ${role}`);
    report.takenOverSchemas.push(service.schema);
  }
  // Whatever a migration run by another role left in the schema (an upgrade from one shared role).
  for (const statement of await ownershipChanges(client, service)) await client.query(statement);
}

/**
 * `ALTER ... OWNER TO` for every object in the schema the role does not own yet. Tables first:
 * their indexes, row types and column sequences follow them; then the sequences, types and
 * routines of their own.
 */
async function ownershipChanges(client: pg.Client, service: ServiceRole): Promise<string[]> {
  const role = client.escapeIdentifier(service.role);
  const { rows } = await client.query<{ statement: string; step: number }>(
    `SELECT format('ALTER %s %s OWNER TO ', CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                     WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, c.oid::regclass) AS statement, 1 AS step
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relowner <> $2::regrole
     UNION ALL
     SELECT format('ALTER SEQUENCE %s OWNER TO ', c.oid::regclass), 2
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'S' AND c.relowner <> $2::regrole
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass
                          AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
     UNION ALL
     SELECT format('ALTER %s %s OWNER TO ', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype), 3
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typowner <> $2::regrole AND t.typrelid = 0
        AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.typarray = t.oid)
     UNION ALL
     SELECT format('ALTER ROUTINE %s OWNER TO ', p.oid::regprocedure), 4
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND p.proowner <> $2::regrole
     ORDER BY step`,
    [service.schema, service.role],
  );
  return rows.map((row) => `${row.statement}${role}`);
}

/** Printable ASCII: PostgreSQL would SASLprep anything else before hashing, which is not done here. */
const PASSWORD = /^[\x20-\x7e]+$/;

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for a password (RFC 5802, RFC 7677), in its
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>` form.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  if (!PASSWORD.test(password)) throw new Error('A role password must be printable ASCII');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}

// ---- configuration of the bootstrap command -------------------------------------------------

/** `AUTH_DATABASE_URL`, ...: the URL a service connects with names its role and password. */
export const serviceDatabaseUrlKey = (service: ServiceName) =>
  `${service.toUpperCase() as Uppercase<ServiceName>}_DATABASE_URL` as const;

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
  .refine((url) => Boolean(URL.parse(url)?.username), { error: 'must name a user' })
  .refine((url) => (URL.parse(url)?.pathname.length ?? 0) > 1, { error: 'must name a database' });

const databaseOf = (url: string) => decodeURIComponent(URL.parse(url)?.pathname.slice(1) ?? '');
const userOf = (url: string) => decodeURIComponent(URL.parse(url)?.username ?? '');
const passwordOf = (url: string) => decodeURIComponent(URL.parse(url)?.password ?? '');

/**
 * The bootstrap's environment: a superuser's URL, and the URL each service connects with (the
 * same values the services get), whose user and password become the service's role.
 */
export const databaseRolesConfigSchema = baseConfigSchema
  .pick({ NODE_ENV: true, LOG_LEVEL: true, LOG_FORMAT: true })
  .extend({
    DATABASE_ADMIN_URL: postgresUrl,
    ...(Object.fromEntries(
      SERVICE_NAMES.map((service) => [
        serviceDatabaseUrlKey(service),
        postgresUrl
          .refine((url) => ROLE_NAME.test(userOf(url)), { error: `its user must match ${ROLE_NAME.source}` })
          .refine((url) => passwordOf(url) === '' || PASSWORD.test(passwordOf(url)), {
            error: 'its password must be printable ASCII',
          }),
      ]),
    ) as Record<ReturnType<typeof serviceDatabaseUrlKey>, typeof postgresUrl>),
  })
  .superRefine((config, context) => {
    const database = databaseOf(config.DATABASE_ADMIN_URL);
    const admin = userOf(config.DATABASE_ADMIN_URL);
    const users = new Map<string, string>();
    for (const service of SERVICE_NAMES) {
      const key = serviceDatabaseUrlKey(service);
      const url = config[key];
      if (databaseOf(url) !== database) {
        context.addIssue({ code: 'custom', path: [key], message: `must name the database ${database}` });
      }
      const user = userOf(url);
      if (user === admin) context.addIssue({ code: 'custom', path: [key], message: 'must not be the administrator' });
      const other = users.get(user);
      if (other) context.addIssue({ code: 'custom', path: [key], message: `shares its user ${user} with ${other}` });
      users.set(user, key);
    }
  });
export type DatabaseRolesConfig = z.output<typeof databaseRolesConfigSchema>;

/** Each service's role from its URL; its schema is named after it (each service's database definition). */
export function serviceRolesOf(config: DatabaseRolesConfig): ServiceRole[] {
  return SERVICE_NAMES.map((service) => {
    const url = config[serviceDatabaseUrlKey(service)];
    const password = passwordOf(url);
    return { schema: service, role: userOf(url), ...(password === '' ? {} : { password }) };
  });
}
