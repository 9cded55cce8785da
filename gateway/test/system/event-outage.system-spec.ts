import { randomBytes } from 'node:crypto';
import type { CustomModel, GenerationJob } from '@likeness/contracts';
import { TEST_DATABASE_URL, type TestDatabase, createTestDatabase, waitFor } from '@likeness/testing';
import pg from 'pg';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, queryDatabase, startTestStack } from './stack-harness.js';

/**
 * Billing loses its database while generations complete: it cannot settle their holds for longer
 * than the old give-up (10 failed deliveries, after which an event was dropped and its hold never
 * charged). When the database is back, every hold is captured exactly once.
 */
describe('events across an outage of the billing database', () => {
  let database: TestDatabase;
  let stack: RunningStack;
  let api: ReturnType<typeof apiClient>;
  let ada: Session;
  let model: CustomModel;
  /** Billing's own login, which the test can take away and give back. */
  const role = `likeness_billing_${randomBytes(4).toString('hex')}`;

  const query = <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(database.url, sql, params);

  beforeAll(async () => {
    database = await createTestDatabase('outage');
    await query(`CREATE ROLE ${role} LOGIN`);
    await query(`GRANT CREATE ON DATABASE "${database.name}" TO ${role}`);
    const billingUrl = new URL(database.url);
    billingUrl.username = role;
    stack = await startTestStack(
      // Retries at most a second apart, so the old limit of 10 failed deliveries passes in seconds.
      { LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '2000', EVENT_RETRY_MAX_MS: '1000' },
      { database, appEnv: { billing: { DATABASE_URL: billingUrl.toString() } } },
    );
    api = apiClient(stack.url, '198.18.7');
    ada = await api.register('ada_outage');
    await api.buyCredits(ada, 'starter'); // 5 + 50
    const selfies = await api.uploadSelfies(ada, 12);
    model = await api.trainModel(ada, { modelName: 'Ada', triggerWord: 'ada_face' }, selfies);
    await waitFor(async () => (await api.credits(ada)) === 25, { what: 'the training charged' });
  });

  afterAll(async () => {
    await query(`ALTER ROLE ${role} LOGIN`).catch(() => undefined);
    await stack?.shutdown();
    // The role owned only billing's schema in the dropped database.
    const admin = new pg.Client({ connectionString: process.env[TEST_DATABASE_URL] });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin.end();
  });

  it('should capture every hold exactly once after billing was away longer than the old give-up', async () => {
    const jobIds: string[] = [];
    for (let run = 0; run < 3; run += 1) {
      const response = await api.call('/api/generate-avatar', {
        method: 'POST',
        session: ada,
        body: { promptText: `ada_face, run ${run}`, customModelId: model.id, numOutputs: 1 },
      });
      expect(response.status).toBe(201);
      jobIds.push((response.json as { jobId: string }).jobId);
    }

    // Billing's database goes away: its login is refused and its connections are cut.
    await query(`ALTER ROLE ${role} NOLOGIN`);
    await query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
    try {
      await waitFor(
        async () => {
          const jobs = await Promise.all(
            jobIds.map(async (jobId) => (await api.call(`/api/generation-jobs/${jobId}`, { session: ada })).json),
          );
          return (jobs as GenerationJob[]).every((job) => job.status === 'completed');
        },
        { timeoutMs: 120_000, what: 'the jobs completed' },
      );
      // Past the old limit: more than 10 failed deliveries of a GenerationCompleted.
      await waitFor(
        async () => /GenerationCompleted event \S+ failed \(delivery 1[2-9]\)/.test(stack.logOf('billing')),
        {
          timeoutMs: 60_000,
          what: 'billing to fail a twelfth delivery',
        },
      );
    } finally {
      await query(`ALTER ROLE ${role} LOGIN`);
    }

    await waitFor(
      async () => {
        const holds = await query<{ status: string }>(`SELECT status FROM billing.holds WHERE reference = ANY($1)`, [
          jobIds.map((jobId) => `generation:${jobId}`),
        ]);
        return holds.length === 3 && holds.every((hold) => hold.status === 'captured');
      },
      { timeoutMs: 60_000, what: 'every hold captured' },
    );
    const adaId = (await api.call('/api/user', { session: ada })).json.id as number;
    const charges = await query<{ idempotency_key: string; amount: number }>(
      `SELECT idempotency_key, amount FROM billing.ledger_entries WHERE account = $1 AND idempotency_key = ANY($2)`,
      [`user:${adaId}`, jobIds.map((jobId) => `capture:generation:${jobId}`)],
    );
    expect(charges).toHaveLength(3);
    expect(await api.credits(ada)).toBe(10);
    expect(await query(`SELECT 1 FROM billing.dead_letters`)).toEqual([]);
  });
});
