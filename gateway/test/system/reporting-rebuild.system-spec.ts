import { spawn } from 'node:child_process';
import { AdminRpc, type CustomModel, type GenerationJob } from '@likeness/contracts';
import { ROOT, type StripeStandIn, createTestRpcClient, startStripeStandIn, waitFor } from '@likeness/testing';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, queryDatabase, startTestStack } from './stack-harness.js';

/*
 * Issue 13: reporting's read models are built from events only, match the owning services' own
 * numbers, and a rebuild from the services' snapshots gives back exactly the same rows and
 * counters, even while events keep arriving.
 */

let stack: RunningStack;
let stripe: StripeStandIn;
let api: ReturnType<typeof apiClient>;

const query = <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(stack.databaseUrl, sql, params);

/** Every reporting table and counter in key order: what a rebuild must give back exactly. */
async function readModels(): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = {
    users: 'id',
    credit_balances: 'user_id',
    payments: 'id',
    trainings: 'model_id',
    generation_jobs: 'id',
    daily_stats: 'day',
    totals: 'id',
  };
  const result: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables)) {
    result[table] = await query(`SELECT * FROM reporting.${table} ORDER BY ${key}`);
  }
  return result;
}

const GRANTED = `status IN ('succeeded', 'refunded', 'disputed')`;
const STARTED = `status IN ('training', 'completed', 'failed')`;
const LIVE_USER = `user_id NOT IN (SELECT id FROM auth.users WHERE deleted_at IS NOT NULL)`;

type Counter =
  | 'users'
  | 'payments'
  | 'revenue_cents'
  | 'generations_pending'
  | 'generations_completed'
  | 'generations_failed'
  | 'trainings_running'
  | 'trainings_completed'
  | 'trainings_failed'
  | 'credits_outstanding';

/** The counters as the owning services count their own rows. */
const ownNumbers = async (): Promise<Record<Counter, number>> =>
  (
    await query<Record<Counter, number>>(
      `SELECT
         (SELECT count(*)::int FROM auth.users WHERE deleted_at IS NULL) AS users,
         (SELECT count(*)::int FROM billing.payments WHERE ${GRANTED}) AS payments,
         (SELECT coalesce(sum(amount_cents - refunded_cents), 0)::int FROM billing.payments WHERE ${GRANTED}) AS revenue_cents,
         (SELECT count(*)::int FROM generation.generation_jobs WHERE status = 'pending' AND ${LIVE_USER}) AS generations_pending,
         (SELECT count(*)::int FROM generation.generation_jobs WHERE status = 'completed' AND ${LIVE_USER}) AS generations_completed,
         (SELECT count(*)::int FROM generation.generation_jobs WHERE status = 'failed' AND ${LIVE_USER}) AS generations_failed,
         (SELECT count(*)::int FROM training.custom_models WHERE status = 'training' AND ${LIVE_USER}) AS trainings_running,
         (SELECT count(*)::int FROM training.custom_models WHERE status = 'completed' AND ${LIVE_USER}) AS trainings_completed,
         (SELECT count(*)::int FROM training.custom_models WHERE status = 'failed' AND ${LIVE_USER}) AS trainings_failed,
         (SELECT coalesce(sum(balance), 0)::int FROM billing.accounts WHERE closed_at IS NULL) AS credits_outstanding`,
    )
  )[0]!;

/** The same counters as reporting keeps them, and as its rows and daily figures add up. */
const reportingNumbers = async () => {
  const [totals] = await query(
    `SELECT users, payments, revenue_cents::int, generations_pending, generations_completed, generations_failed,
            trainings_running, trainings_completed, trainings_failed, credits_outstanding::int
     FROM reporting.totals`,
  );
  const [rows] = await query(
    `SELECT
       (SELECT count(*)::int FROM reporting.users) AS users,
       (SELECT count(*)::int FROM reporting.payments) AS payments,
       (SELECT coalesce(sum(amount_cents - refunded_cents), 0)::int FROM reporting.payments) AS revenue_cents,
       (SELECT count(*)::int FROM reporting.generation_jobs WHERE status = 'pending') AS generations_pending,
       (SELECT count(*)::int FROM reporting.generation_jobs WHERE status = 'completed') AS generations_completed,
       (SELECT count(*)::int FROM reporting.generation_jobs WHERE status = 'failed') AS generations_failed,
       (SELECT count(*)::int FROM reporting.trainings WHERE status = 'training') AS trainings_running,
       (SELECT count(*)::int FROM reporting.trainings WHERE status = 'completed') AS trainings_completed,
       (SELECT count(*)::int FROM reporting.trainings WHERE status = 'failed') AS trainings_failed,
       (SELECT coalesce(sum(balance), 0)::int FROM reporting.credit_balances) AS credits_outstanding`,
  );
  const [days] = await query(
    `SELECT coalesce(sum(signups), 0)::int AS users, coalesce(sum(revenue_cents), 0)::int AS revenue_cents,
            coalesce(sum(generations), 0)::int AS generations, coalesce(sum(failed_jobs), 0)::int AS failed_jobs
     FROM reporting.daily_stats`,
  );
  return { totals, rows, days };
};

/** Each row as its owning service has it, times included, against reporting's copy. */
const rowPairs = async () => ({
  users: [
    await query(`SELECT id, username, email, role, created_at FROM auth.users WHERE deleted_at IS NULL ORDER BY id`),
    await query(`SELECT id, username, email, role, registered_at AS created_at FROM reporting.users ORDER BY id`),
  ],
  balances: [
    await query(
      `SELECT user_id, balance, balance - held AS available FROM billing.accounts WHERE closed_at IS NULL ORDER BY user_id`,
    ),
    await query(`SELECT user_id, balance, available FROM reporting.credit_balances ORDER BY user_id`),
  ],
  payments: [
    await query(
      `SELECT id::text, user_id, amount_cents, credits, status, refunded_cents, succeeded_at AS at
       FROM billing.payments WHERE ${GRANTED} ORDER BY id`,
    ),
    await query(
      `SELECT id, user_id, amount_cents, credits, status, refunded_cents, created_at AS at FROM reporting.payments ORDER BY id`,
    ),
  ],
  trainings: [
    await query(
      `SELECT id AS model_id, user_id, status, started_at, finished_at FROM training.custom_models
       WHERE ${STARTED} AND ${LIVE_USER} ORDER BY id`,
    ),
    await query(`SELECT model_id, user_id, status, started_at, finished_at FROM reporting.trainings ORDER BY model_id`),
  ],
  jobs: [
    await query(
      `SELECT id, user_id, status, num_outputs, created_at, completed_at AS finished_at
       FROM generation.generation_jobs WHERE ${LIVE_USER} ORDER BY id`,
    ),
    await query(
      `SELECT id, user_id, status, num_outputs, created_at, finished_at FROM reporting.generation_jobs ORDER BY id`,
    ),
  ],
});

/** Waits until reporting's counters, rows and days all tell what the owning services have. */
async function caughtUp(what: string): Promise<void> {
  /** Each comparison: what the owning services have, and what reporting has. */
  const comparisons = async () => {
    const own = await ownNumbers();
    const { totals, rows, days } = await reportingNumbers();
    const ownDays = {
      users: own.users,
      revenue_cents: own.revenue_cents,
      generations: own.generations_pending + own.generations_completed + own.generations_failed,
      failed_jobs: own.generations_failed,
    };
    return { totals: [own, totals], rows: [own, rows], days: [ownDays, days], ...(await rowPairs()) };
  };
  const same = ([owned, reported]: unknown[]) => JSON.stringify(owned) === JSON.stringify(reported);
  try {
    await waitFor(async () => Object.values(await comparisons()).every(same), { timeoutMs: 30_000, what });
  } catch (error) {
    // Show what still differs.
    for (const [name, [owned, reported]] of Object.entries(await comparisons())) {
      expect({ [name]: reported }).toEqual({ [name]: owned });
    }
    throw error;
  }
}

/** `npm run reporting:rebuild`, the real command, with the stack's environment. */
function rebuild(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['services/reporting/dist/main.js', 'rebuild'], {
      cwd: ROOT,
      env: { ...process.env, ...stack.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** A Stripe payment the customer completed, confirmed by the app. */
async function pay(session: Session, packageId: string): Promise<string> {
  const intent = await api.call('/api/create-payment-intent', { method: 'POST', body: { packageId }, session });
  const paymentIntentId = intent.json.paymentIntentId as string;
  stripe.succeed(paymentIntentId);
  const confirmed = await api.call('/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, session });
  expect(confirmed.status).toBe(200);
  return paymentIntentId;
}

async function refund(paymentIntentId: string, amountRefunded: number): Promise<void> {
  const event = stripe.signedEvent('charge.refunded', stripe.chargeFor(paymentIntentId, { amountRefunded }));
  // Stripe posts the raw body it signed.
  const delivered = await fetch(`${stack.url}/api/webhooks/stripe`, {
    method: 'POST',
    body: event.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
  });
  expect(delivered.status).toBe(200);
}

const generate = async (session: Session, customModelId: number, promptText: string) => {
  const started = await api.call('/api/generate-avatar', {
    method: 'POST',
    session,
    body: { promptText, customModelId, numOutputs: 1 },
  });
  expect(started.status).toBe(201);
  return started.json.jobId as string;
};

const finished = (session: Session, jobId: string) =>
  waitFor(
    async () => {
      const job = (await api.call(`/api/generation-jobs/${jobId}`, { session })).json as GenerationJob;
      return job.status === 'pending' ? undefined : job;
    },
    { timeoutMs: 60_000, what: `job ${jobId} finished` },
  );

describe("reporting's read models against the owning services, and their rebuild", () => {
  let ada: Session;
  let model: CustomModel;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    stack = await startTestStack({ ...stripe.env, LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '400' });
    api = apiClient(stack.url, '198.18.13');
  });

  afterAll(async () => {
    await stack?.shutdown();
    await stripe?.stop();
  });

  it('should match the services exactly after a day of activity, and rebuild to the very same rows and counters', async () => {
    ada = await api.register('ada_reported');
    const [bob, cy, dee] = await Promise.all([
      api.register('bob_reported'),
      api.register('cy_reported'),
      api.register('dee_reported'),
    ]);
    await pay(ada, 'professional');
    await pay(ada, 'starter');
    const bobs = await pay(bob, 'starter');
    const cys = await pay(cy, 'creator');
    await pay(dee, 'starter');
    await refund(bobs, 500); // all of it
    await refund(cys, 300); // part of it

    model = await api.trainModel(ada, { modelName: 'Ada', triggerWord: 'ada_face' }, await api.uploadSelfies(ada, 12));
    const failing = await api.call('/api/train-model', {
      method: 'POST',
      session: ada,
      body: { modelName: 'Broken', triggerWord: 'fail-training', referenceImageIds: await api.uploadSelfies(ada, 12) },
    });
    expect(failing.status).toBe(201);
    await waitFor(
      async () =>
        ((await api.call('/api/custom-models', { session: ada })).json as CustomModel[]).some(
          (item) => item.id === failing.json.id && item.status === 'failed',
        ),
      { timeoutMs: 30_000, what: 'the failing training failed' },
    );
    const jobs = await Promise.all([
      generate(ada, model.id, 'ada_face at the beach'),
      generate(ada, model.id, 'ada_face in the snow'),
      generate(ada, model.id, 'ada_face fail-generation'),
    ]);
    const outcomes = await Promise.all(jobs.map((jobId) => finished(ada, jobId)));
    expect(outcomes.map((job) => job.status).sort()).toEqual(['completed', 'completed', 'failed']);
    expect(
      (await api.call('/api/account', { method: 'DELETE', session: dee, body: { password: 'secret-password' } }))
        .status,
    ).toBe(200);
    await waitFor(async () => (await query(`SELECT 1 FROM reporting.deleted_users`)).length === 1, {
      what: 'reporting erased the deleted user',
    });

    await caughtUp('the read models caught up with the day');
    const own = await ownNumbers();
    expect(own).toEqual({
      users: 3,
      payments: 5,
      revenue_cents: 2200 + 500 + 500 + 1100 + 500 - 500 - 300,
      generations_pending: 0,
      generations_completed: 2,
      generations_failed: 1,
      trainings_running: 0,
      trainings_completed: 1,
      trainings_failed: 1,
      credits_outstanding: expect.any(Number),
    });
    const client = await createTestRpcClient(stack.env['NATS_URL']!, stack.env['NATS_NAMESPACE']!, 10_000);
    try {
      const summary = await client.rpc.call(AdminRpc.getSummary, {}, { caller: { userId: 1, role: 'admin' } });
      expect(summary).toMatchObject({
        totalUsers: 3,
        totalPayments: 5,
        revenueCents: own.revenue_cents,
        totalGenerations: 3,
      });
    } finally {
      await client.close();
    }

    const incremental = await readModels();
    const result = await rebuild();
    expect(result).toMatchObject({ code: 0 });
    expect(result.output).toContain('Rebuilt the read models');
    expect(await readModels()).toEqual(incremental);
  });

  it('should count every event once when they keep arriving during the rebuild', async () => {
    const before = await ownNumbers();
    // Jobs that are requested, run and finish while the rebuild empties and refills the tables.
    const running = Promise.all(
      Array.from({ length: 4 }, async (_, index) => {
        const jobId = await generate(ada, model.id, `ada_face, portrait ${index}`);
        return finished(ada, jobId);
      }),
    );
    const newcomers = Promise.all([api.register('eve_reported'), api.register('fay_reported')]);
    const result = await rebuild();
    expect(result).toMatchObject({ code: 0 });
    await Promise.all([running, newcomers]);

    await caughtUp('the read models caught up after the rebuild');
    expect(await ownNumbers()).toMatchObject({
      users: before.users + 2,
      generations_completed: before.generations_completed + 4,
      generations_pending: 0,
    });
    // And a rebuild now, with nothing arriving, changes nothing.
    const incremental = await readModels();
    expect(await rebuild()).toMatchObject({ code: 0 });
    expect(await readModels()).toEqual(incremental);
  });
});
