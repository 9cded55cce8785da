import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Set by the Jest global setup: the server URLs every test file shares. */
export const TEST_DATABASE_URL = 'LIKENESS_TEST_DATABASE_URL';
export const TEST_NATS_URL = 'LIKENESS_TEST_NATS_URL';
/** Set by the Jest global setup: a token in every namespace of this run, so its cleanup touches only its own streams. */
export const TEST_RUN = 'LIKENESS_TEST_RUN';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run tests through Jest's integration or system project`);
  return value;
}

export function testNatsUrl(): string {
  return required(TEST_NATS_URL);
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test suite, so suites never see each other's rows. */
export async function createTestDatabase(label = 'suite'): Promise<TestDatabase> {
  const adminUrl = required(TEST_DATABASE_URL);
  const name = `likeness_${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * A subject and stream prefix of one test suite, so suites never see each other's messages:
 * `<label><run token><8 hex>`. Runs started side by side on one NATS server clean up only their own.
 */
export function testNamespace(label = 't'): string {
  return `${label.replace(/[^A-Za-z0-9]/g, '')}${process.env[TEST_RUN] ?? ''}${randomBytes(4).toString('hex')}`;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
