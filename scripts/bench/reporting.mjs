#!/usr/bin/env node
// `npm run bench:reporting`: the admin area's reads on big read models, and how late events reach them.
//   - seeds reporting's read models directly with SQL (generate_series): 100,000 users and their
//     balances, 200,000 payments, 1,000,000 generation jobs over 180 days, with the matching
//     `totals` and `daily_stats` rows, then VACUUM ANALYZE;
//   - starts the whole stack from its build, signs the administrator in, and measures each admin
//     list (first page, a page via cursor, a search, a status filter), the summary and the
//     timeseries through the gateway's /api/admin routes: 4 in flight, at most
//     BENCH_REQUESTS (default 400) requests or 10 s per row;
//   - publishes BENCH_EVENTS_PER_SECOND (default 500) events a second for BENCH_LAG_SECONDS
//     (default 20) to the real event stream (jobs requested and finished, sign-ups, balances) and
//     measures each event's lag: from its occurredAt to the start of the transaction that applied
//     it (reporting's inbox row); BENCH_LAG_ROUNDS (default 3) rounds, each with where the time went
//     (per consumer: its transactions, publish → stored → applied; what reporting's database
//     connections were doing; deadlocks; batches applied again one at a time), then the medians.
// Its own database and NATS namespace, removed at the end. Uses DATABASE_URL / NATS_URL (the
// machine's servers by default). Results go to docs/benchmarks.md by hand, with the machine.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import pg from 'pg';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');
const { namespaced } = await import('../../libs/nest-kit/dist/index.js');
const { AuthEvents, BillingEvents, GenerationEvents } = await import('../../libs/contracts/dist/index.js');

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const EVENTS_PER_SECOND = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 500);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 20);
const LAG_ROUNDS = Number(process.env.BENCH_LAG_ROUNDS ?? 3);
const ADMIN = { username: 'bench_admin', email: 'admin@bench.example', password: 'Bench-Admin-Pass-2049' };

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-reporting-'));
const bench = await createBenchEnvironment('reporting', {
  DATA_DIR: dataDir,
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
});
const { env, natsUrl, namespace } = bench;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function timed(label, work) {
  const started = performance.now();
  await work();
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Read models as months of use leave them; user ids from 2 (1 is the administrator). */
async function seed(db) {
  const days = `(random() * 180 * 86400)::int * interval '1 second'`;
  await timed(`${USERS} users and balances`, async () => {
    await db.query(
      `INSERT INTO reporting.users (id, username, email, role, registered_at)
       SELECT g + 1, 'user_' || g, 'user_' || g || '@example.com', 'user', date_trunc('milliseconds', now() - ${days})
       FROM generate_series(1, $1) g`,
      [USERS],
    );
    await db.query(
      `INSERT INTO reporting.credit_balances (user_id, balance, available, changed_at)
       SELECT g + 1, g % 500, g % 500 - (g % 7), date_trunc('milliseconds', now() - ${days})
       FROM generate_series(1, $1) g WHERE g % 500 >= g % 7`,
      [USERS],
    );
  });
  await timed(`${PAYMENTS} payments`, () =>
    db.query(
      `INSERT INTO reporting.payments (id, user_id, package_id, amount_cents, credits, status, refunded_cents, created_at)
       SELECT gen_random_uuid()::text, 2 + g % $2, p.id, p.cents, p.credits, s.status,
              CASE WHEN s.status = 'succeeded' THEN 0 ELSE p.cents END, date_trunc('milliseconds', now() - ${days})
       FROM generate_series(1, $1) g
       CROSS JOIN LATERAL (SELECT (ARRAY['starter', 'creator', 'professional'])[1 + g % 3] AS id,
                                  (ARRAY[500, 1100, 2200])[1 + g % 3] AS cents,
                                  (ARRAY[50, 125, 275])[1 + g % 3] AS credits) p
       CROSS JOIN LATERAL (SELECT CASE WHEN g % 50 = 0 THEN 'disputed' WHEN g % 12 = 0 THEN 'refunded'
                                       ELSE 'succeeded' END AS status) s`,
      [PAYMENTS, USERS],
    ),
  );
  await timed(`${JOBS} generation jobs`, () =>
    db.query(
      `INSERT INTO reporting.generation_jobs (id, user_id, prompt_text, num_outputs, status, failure_reason, created_at, finished_at)
       SELECT gen_random_uuid(), 2 + (g::bigint * 7919) % $2, 'user_' || g % $2 || '_face, portrait ' || g, 1 + g % 4, s.status,
              CASE WHEN s.status = 'failed' THEN 'The model timed out' END, t.at,
              CASE WHEN s.status <> 'pending' THEN t.at + interval '20 seconds' END
       FROM generate_series(1, $1) g
       CROSS JOIN LATERAL (SELECT date_trunc('milliseconds', now() - ${days}) AS at) t
       CROSS JOIN LATERAL (SELECT CASE WHEN g % 100 = 0 THEN 'pending' WHEN g % 20 = 0 THEN 'failed'
                                       ELSE 'completed' END AS status) s`,
      [JOBS, USERS],
    ),
  );
  await timed('totals and daily_stats', async () => {
    await db.query(
      `UPDATE reporting.totals SET
         users = (SELECT count(*) FROM reporting.users),
         payments = (SELECT count(*) FROM reporting.payments),
         revenue_cents = (SELECT sum(amount_cents - refunded_cents) FROM reporting.payments),
         generations_pending = (SELECT count(*) FROM reporting.generation_jobs WHERE status = 'pending'),
         generations_completed = (SELECT count(*) FROM reporting.generation_jobs WHERE status = 'completed'),
         generations_failed = (SELECT count(*) FROM reporting.generation_jobs WHERE status = 'failed'),
         credits_outstanding = (SELECT sum(balance) FROM reporting.credit_balances)
       WHERE id = 1`,
    );
    await db.query(
      `INSERT INTO reporting.daily_stats (day, signups, revenue_cents, generations, failed_jobs)
       SELECT day, sum(signups), sum(revenue), sum(generations), sum(failed) FROM (
         SELECT (registered_at AT TIME ZONE 'UTC')::date AS day, 1 AS signups, 0 AS revenue, 0 AS generations, 0 AS failed
         FROM reporting.users
         UNION ALL
         SELECT (created_at AT TIME ZONE 'UTC')::date, 0, amount_cents - refunded_cents, 0, 0 FROM reporting.payments
         UNION ALL
         SELECT (created_at AT TIME ZONE 'UTC')::date, 0, 0, 1, (status = 'failed')::int FROM reporting.generation_jobs
       ) facts GROUP BY day`,
    );
  });
  await timed('VACUUM ANALYZE', async () => {
    for (const table of ['users', 'credit_balances', 'payments', 'generation_jobs', 'daily_stats', 'totals']) {
      await db.query(`VACUUM ANALYZE reporting.${table}`);
    }
  });
}

/** Sends `paths()` GETs, 4 in flight, at most REQUESTS of them or 10 s; prints a table row. */
async function phase(name, cookie, nextPath) {
  const latencies = [];
  let errors = 0;
  let issued = 0;
  const deadline = performance.now() + 10_000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (issued < REQUESTS && performance.now() < deadline) {
        issued += 1;
        const path = nextPath(issued);
        const t0 = performance.now();
        const response = await fetch(`${stack.url}${path}`, { headers: { cookie } });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status !== 200) errors += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const row = [50, 95, 99].map((p) => percentile(latencies, p / 100).toFixed(1));
  console.log(`| ${name} | ${latencies.length} | ${errors} | ${row.join(' | ')} |`);
  return Number(row[1]);
}

/** Up to `count` cursors met walking a list from its first page. */
async function cursorsOf(cookie, list, count) {
  const cursors = [];
  let cursor;
  while (cursors.length < count) {
    const response = await fetch(`${stack.url}${list}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { cookie } });
    const page = await response.json();
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
    cursors.push(cursor);
  }
  return cursors;
}

async function measureLag(db) {
  const connection = await connect({ servers: natsUrl });
  const js = jetstream(connection);
  const published = new Map();
  const requested = [];
  let nextUser = USERS + 1_000;
  const stored = new Map();
  const send = async (event, payload) => {
    const occurredAt = new Date().toISOString();
    const id = randomUUID();
    const envelope = { id, type: `${event.service}.${event.name}`, version: event.version, occurredAt, payload };
    published.set(id, Date.parse(occurredAt));
    await js.publish(namespaced({ namespace }, event.subject), JSON.stringify(envelope), { msgID: id });
    stored.set(id, Date.now());
  };
  const oneEvent = (index) => {
    const userId = 2 + ((index * 7919) % USERS);
    switch (index % 10) {
      case 0: {
        nextUser += 1;
        return send(AuthEvents.UserRegistered, {
          userId: nextUser,
          username: `new_${nextUser}`,
          email: `new_${nextUser}@example.com`,
          role: 'user',
          registeredAt: new Date().toISOString(),
        });
      }
      case 1:
        return send(BillingEvents.CreditsChanged, { userId, delta: -5, balance: 100, available: 95, reason: 'bench' });
      default: {
        const finished = index % 2 === 1 && requested.length > 0 ? requested.shift() : undefined;
        if (finished) {
          return send(GenerationEvents.GenerationCompleted, {
            ...finished,
            customModelId: 1,
            promptText: 'bench',
            avatarIds: [1],
          });
        }
        const jobId = randomUUID();
        const job = { jobId, userId, holdReference: `generation:${jobId}` };
        requested.push(job);
        return send(GenerationEvents.GenerationRequested, {
          ...job,
          customModelId: 1,
          promptText: 'bench',
          numOutputs: 1,
        });
      }
    }
  };
  const deadlocksBefore = await deadlocks(db);
  const fallbacksBefore = fallbacks();
  const sampler = sampleReportingConnections(db);
  // Paced in 10 ms ticks, each publishing its share at once.
  const total = EVENTS_PER_SECOND * LAG_SECONDS;
  const perTick = EVENTS_PER_SECOND / 100;
  const started = performance.now();
  for (let sent = 0, tick = 0; sent < total; tick += 1) {
    const due = Math.min(total, Math.round((tick + 1) * perTick));
    const batch = [];
    for (; sent < due; sent += 1) batch.push(oneEvent(sent));
    await Promise.all(batch);
    const wait = started + (tick + 1) * 10 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const publishSeconds = (performance.now() - started) / 1000;
  await connection.drain();
  const ids = [...published.keys()];
  const deadline = Date.now() + 120_000;
  let applied = [];
  while (Date.now() < deadline) {
    applied = (
      await db.query(`SELECT event_id, processed_at FROM reporting.inbox WHERE event_id = ANY($1::uuid[])`, [ids])
    ).rows;
    if (applied.length >= ids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const waits = await sampler.stop();
  const lags = applied.map((row) => row.processed_at.getTime() - published.get(row.event_id)).sort((a, b) => a - b);
  console.log(
    `Published ${ids.length} events in ${publishSeconds.toFixed(1)} s (${(ids.length / publishSeconds).toFixed(0)}/s); applied ${applied.length}`,
  );
  console.log('| events | applied | lag p50 ms | lag p95 ms | lag p99 ms | lag max ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ${ids.length} | ${applied.length} | ${[0.5, 0.95, 0.99].map((p) => percentile(lags, p)).join(' | ')} | ${lags.at(-1)} |`,
  );
  await lagStages(db, ids, published, stored);
  console.log(`Reporting's connections while the events came (share of ${waits.samples} samples, 20 ms apart):`);
  for (const [state, count] of [...waits.states].sort((a, b) => b[1] - a[1])) {
    console.log(
      `  ${state}: ${((100 * count) / waits.samples).toFixed(0)} % (${(count / waits.samples).toFixed(2)} connections)`,
    );
  }
  console.log(
    `Deadlocks: ${(await deadlocks(db)) - deadlocksBefore}; ` +
      `batches applied again one event at a time: ${fallbacks() - fallbacksBefore}`,
  );
  return percentile(lags, 0.99);
}

/** Batches reporting applied again one event at a time so far (its log says so each time). */
const fallbacks = () =>
  readFileSync(join(dataDir, 'reporting.log'), 'utf8').split('applying them one at a time').length - 1;

const deadlocks = async (db) =>
  Number(
    (await db.query(`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`)).rows[0].deadlocks,
  );

/** What reporting's database connections are doing, every 20 ms, until `stop()`. */
function sampleReportingConnections(db) {
  const states = new Map();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await db.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') || ' (' || state || ')' AS what, count(*)::int AS n
         FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'likeness-reporting' AND state <> 'idle'
         GROUP BY 1`,
      );
      samples += 1;
      for (const { what, n } of rows) states.set(what, (states.get(what) ?? 0) + n);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { states, samples };
    },
  };
}

/**
 * Where the lag goes, per consumer: publish → stored in the stream (the benchmark's publish ack),
 * stored → the start of the transaction that applied the event (its inbox row's processed_at; the
 * events of one transaction share it), and the consumer's transactions (one per batch).
 */
async function lagStages(db, ids, published, stored) {
  const { rows } = await db.query(
    `SELECT consumer, event_id, processed_at FROM reporting.inbox WHERE event_id = ANY($1::uuid[]) ORDER BY processed_at`,
    [ids],
  );
  const byConsumer = new Map();
  for (const row of rows) byConsumer.set(row.consumer, [...(byConsumer.get(row.consumer) ?? []), row]);
  const p = (values, q) =>
    percentile(
      [...values].sort((a, b) => a - b),
      q,
    ) ?? NaN;
  console.log(
    '| consumer | events | transactions | events per transaction (mean / max) | ms between its transactions (p50 / p99) | ' +
      'publish→stored p99 ms | stored→applied p50 / p99 ms | occurred→committed p99 ms, at most |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const visible = [];
  for (const [consumer, events] of [...byConsumer].sort()) {
    const starts = [...new Set(events.map((row) => row.processed_at.getTime()))].sort((a, b) => a - b);
    const sizes = new Map();
    for (const row of events) sizes.set(row.processed_at.getTime(), (sizes.get(row.processed_at.getTime()) ?? 0) + 1);
    const gaps = starts.slice(1).map((start, index) => start - starts[index]);
    const toStored = events.map((row) => stored.get(row.event_id) - published.get(row.event_id));
    const toApplied = events.map((row) => row.processed_at.getTime() - stored.get(row.event_id));
    // A consumer's next transaction starts after its previous one committed: a bound on the commit.
    const next = new Map(starts.slice(0, -1).map((start, index) => [start, starts[index + 1]]));
    const toCommitted = events.flatMap((row) => {
      const bound = next.get(row.processed_at.getTime());
      return bound === undefined ? [] : [bound - published.get(row.event_id)];
    });
    visible.push(...toCommitted);
    console.log(
      `| ${consumer.replace(/^reporting-/, '')} | ${events.length} | ${starts.length} | ` +
        `${(events.length / starts.length).toFixed(1)} / ${Math.max(...sizes.values())} | ` +
        `${p(gaps, 0.5)} / ${p(gaps, 0.99)} | ${p(toStored, 0.99)} | ${p(toApplied, 0.5)} / ${p(toApplied, 0.99)} | ` +
        `${p(toCommitted, 0.99)} |`,
    );
  }
  console.log(
    `From occurredAt to the commit, at most (the consumer's next transaction's start; each consumer's last ` +
      `transaction left out): p50 ${p(visible, 0.5)} ms, p99 ${p(visible, 0.99)} ms`,
  );
}

let stack;
const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
db.on('error', () => undefined);
try {
  await migrateAll({ env });
  console.log('Seeding:');
  await seed(db);
  stack = await startStack({ env, port: await freePort(), output: { dir: dataDir } });
  const login = await fetch(`${stack.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  if (login.status !== 200) throw new Error(`The administrator could not sign in: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const listPage = (list, cursors) => (index) => `${list}&cursor=${cursors[index % cursors.length]}`;
  const usersCursors = await cursorsOf(cookie, '/api/admin/users?limit=25', 40);
  const paymentsCursors = await cursorsOf(cookie, '/api/admin/payments?limit=25', 40);
  const jobsCursors = await cursorsOf(cookie, '/api/admin/generation-jobs?limit=25', 40);
  const someUser = (index) => 2 + ((index * 104_729) % USERS);

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}; ${new Date().toISOString()}`,
  );
  console.log('| request | requests | errors | p50 ms | p95 ms | p99 ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  // Warm-up, not reported: every plan once, the caches of the first pages.
  for (const path of ['/api/admin/summary', '/api/admin/users', '/api/admin/payments', '/api/admin/generation-jobs']) {
    await fetch(`${stack.url}${path}`, { headers: { cookie } }).then((response) => response.arrayBuffer());
  }
  const p95s = [
    await phase('users: first page', cookie, () => '/api/admin/users'),
    await phase('users: a page via cursor', cookie, listPage('/api/admin/users?limit=25', usersCursors)),
    await phase('users: search by part of a name', cookie, (index) => `/api/admin/users?q=user_${someUser(index)}`),
    await phase('users: search by part of an e-mail', cookie, (index) => `/api/admin/users?q=${(index % 90) + 10}@exa`),
    await phase('payments: first page', cookie, () => '/api/admin/payments'),
    await phase('payments: a page via cursor', cookie, listPage('/api/admin/payments?limit=25', paymentsCursors)),
    await phase('payments: search by user id', cookie, (index) => `/api/admin/payments?q=${someUser(index)}`),
    await phase('payments: status refunded', cookie, () => '/api/admin/payments?status=refunded'),
    await phase('jobs: first page', cookie, () => '/api/admin/generation-jobs'),
    await phase('jobs: a page via cursor', cookie, listPage('/api/admin/generation-jobs?limit=25', jobsCursors)),
    await phase('jobs: search by user id', cookie, (index) => `/api/admin/generation-jobs?q=${someUser(index)}`),
    await phase('jobs: status failed', cookie, () => '/api/admin/generation-jobs?status=failed'),
    await phase(
      'jobs: status pending, oldest first',
      cookie,
      () => '/api/admin/generation-jobs?status=pending&sort=oldest',
    ),
    await phase('summary', cookie, () => '/api/admin/summary'),
    await phase('timeseries, 90 days', cookie, () => '/api/admin/timeseries?days=90'),
  ];
  console.log(`Slowest p95: ${Math.max(...p95s).toFixed(1)} ms (target < 50 ms)`);
  console.log('');
  const p99s = [];
  for (let round = 1; round <= LAG_ROUNDS; round += 1) {
    console.log(
      `Lag, round ${round} of ${LAG_ROUNDS} (load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}):`,
    );
    p99s.push(await measureLag(db));
    console.log('');
  }
  const sorted = [...p99s].sort((a, b) => a - b);
  console.log(
    `Lag p99: median ${sorted[Math.floor(sorted.length / 2)]} ms (${sorted[0]}–${sorted.at(-1)}) over ${LAG_ROUNDS} rounds (target < 500 ms)`,
  );
} finally {
  await stack?.stop();
  await db.end();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
