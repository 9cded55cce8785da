#!/usr/bin/env node
// `npm run bench:ledger`: spends of 5 credits, each a reserve + capture through billing's RPCs
// (the path training and generation take), against the raw SQL conditional update on the same
// database, on one hot account and spread over 10,000 accounts. Bounded: 10 s per phase.
// Uses DATABASE_URL / NATS_URL (the machine's servers by default). Results go to docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import pg from 'pg';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const { createTestRpcClient } = await import('../../libs/testing/dist/service-harness.js');
const { freePort } = await import('../../libs/devstack/dist/index.js');
const { BillingRpc } = await import('../../libs/contracts/dist/index.js');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 32;
const ACCOUNTS = 10_000;
const bench = await createBenchEnvironment('ledger', {
  DATABASE_POOL_SIZE: String(CONCURRENCY),
  HTTP_PORT: String(await freePort()),
});
const { natsUrl, namespace } = bench;
const env = { ...process.env, ...bench.env };

function run(args) {
  return spawn(process.execPath, [`${ROOT}services/billing/dist/main.js`, ...args], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function timed(name, work) {
  let done = 0;
  let refused = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let index = 0; performance.now() < deadline; index += 1) {
        if (await work(worker, index)) done += 1;
        else refused += 1;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  return { name, done, refused, perSecond };
}

const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: CONCURRENCY });
pool.on('error', () => undefined);
let billing;
let inProcess;
let client;
try {
  await new Promise((resolve, reject) =>
    run(['migrate']).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate ${code}`)))),
  );
  // Balances through the ledger (one movement each), so conservation holds during the run.
  await pool.query(
    `WITH funded AS (SELECT g AS user_id FROM generate_series(1, $1) g)
     INSERT INTO billing.accounts (user_id, balance) SELECT user_id, 10000000 FROM funded`,
    [ACCOUNTS],
  );
  await pool.query(
    `INSERT INTO billing.ledger_entries (account, amount, reason, idempotency_key)
     SELECT 'user:' || g, 10000000, 'bench', 'bench:' || g FROM generate_series(1, $1) g
     UNION ALL SELECT 'system:sales', -10000000, 'bench', 'bench:' || g FROM generate_series(1, $1) g`,
    [ACCOUNTS],
  );
  billing = run([]);
  client = await createTestRpcClient(natsUrl, namespace, 30_000);
  for (let attempt = 0; ; attempt += 1) {
    try {
      await client.rpc.call(BillingRpc.getBalance, { userId: 1 });
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const viaService = (pickUser) => async (worker, index) => {
    const reference = `generation:w${worker}i${index}${randomBytes(3).toString('hex')}`;
    await client.rpc.call(BillingRpc.reserveCredits, { userId: pickUser(), amount: 5, reference });
    await client.rpc.call(BillingRpc.captureCredits, { reference });
    return true;
  };
  const viaSql = (pickUser) => async () => {
    const result = await pool.query(
      `UPDATE billing.accounts SET balance = balance - 5 WHERE user_id = $1 AND balance - held >= 5`,
      [pickUser()],
    );
    return result.rowCount === 1;
  };
  // The same ledger code in this process, without the NATS hops: what the SQL path costs.
  const kit = await import('../../libs/nest-kit/dist/index.js');
  const { billingService } = await import('../../services/billing/dist/billing.service-definition.js');
  const { HoldsService } = await import('../../services/billing/dist/ledger/holds.service.js');
  inProcess = await kit.createServiceApp(
    billingService,
    kit.loadConfig(billingService.configSchema, { ...env, NATS_NAMESPACE: `${namespace}x`, HTTP_PORT: '0' }),
  );
  const holds = inProcess.get(HoldsService);
  const inLedger = (pickUser) => async (worker, index) => {
    const reference = `generation:l${worker}i${index}${randomBytes(3).toString('hex')}`;
    await holds.reserve({ userId: pickUser(), amount: 5, reference });
    await holds.capture(reference);
    return true;
  };
  const hot = () => 1;
  const spread = () => 1 + Math.floor(Math.random() * ACCOUNTS);

  // Warm-up, not reported.
  await timed('warm-up', viaService(spread));
  const rows = [
    await timed('reserve + capture via RPC, one hot account', viaService(hot)),
    await timed('reserve + capture in the billing process, one hot account', inLedger(hot)),
    await timed('raw SQL conditional update, one hot account', viaSql(hot)),
    await timed('reserve + capture via RPC, 10,000 accounts', viaService(spread)),
    await timed('reserve + capture in the billing process, 10,000 accounts', inLedger(spread)),
    await timed('raw SQL conditional update, 10,000 accounts', viaSql(spread)),
  ];
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${CONCURRENCY} in flight, ${SECONDS} s each`,
  );
  console.log('| path | spends | refused | spends/s |');
  console.log('| --- | --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.name} | ${row.done} | ${row.refused} | ${row.perSecond.toFixed(0)} |`);
  const ratio = (a, b) => (rows[a].perSecond / rows[b].perSecond).toFixed(2);
  console.log(
    `Service path / raw SQL: via RPC hot ${ratio(0, 2)}, spread ${ratio(3, 5)}; in process hot ${ratio(1, 2)}, spread ${ratio(4, 5)}`,
  );
} finally {
  await client?.close();
  await inProcess?.close();
  if (billing) {
    billing.kill('SIGTERM');
    await new Promise((resolve) => billing.once('exit', resolve));
  }
  await pool.end();
  await bench.cleanup();
}
