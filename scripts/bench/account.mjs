#!/usr/bin/env node
// `npm run bench:account`: how long POST /api/request-password-reset takes to answer for an
// address that has an account and for one that has none, side by side. The whole stack from its
// build on loopback (production settings, the dev mailbox named, limits out of the way). Each
// round sends BENCH_RESET_REQUESTS (default 200) requests of each kind, one at a time, known and
// unknown in a shuffled order (so drift and background work, the known address's mail jobs
// included, fall on both alike), after an unreported warm-up. Bounded: requests per round, rounds
// (BENCH_ROUNDS, default 5, at least 3) and BENCH_MAX_SECONDS (default 300) in all.
// Uses DATABASE_URL / NATS_URL like the tests. Results go to docs/benchmarks.md by hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const REQUESTS = Number(process.env.BENCH_RESET_REQUESTS ?? 200);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 5));
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 300);
const KNOWN = 'bench_known@example.com';
const UNKNOWN = 'bench_unknown@example.com';

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-account-'));
const bench = await createBenchEnvironment('account', {
  DATA_DIR: dataDir,
  // Production refuses the dev mailbox unless it is named.
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
  PASSWORD_RESET_LIMIT_PER_IP: '1000000',
  PASSWORD_RESET_LIMIT_PER_ADDRESS: '1000000',
  REGISTER_LIMIT_PER_IP: '1000',
});
const { env } = bench;
const deadline = performance.now() + MAX_SECONDS * 1000;

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const spread = (values) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}`;

/** One request; its answer time in ms, and whether it was the answer everyone gets. */
async function request(url, email) {
  const started = performance.now();
  const response = await fetch(`${url}/api/request-password-reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${email}: ${response.status} ${body}`);
  return { ms, body };
}

/** `count` of each kind, shuffled (Fisher-Yates), one at a time. */
async function round(url, count) {
  const order = [...Array(count).fill(KNOWN), ...Array(count).fill(UNKNOWN)];
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [order[index], order[other]] = [order[other], order[index]];
  }
  const times = { [KNOWN]: [], [UNKNOWN]: [] };
  const bodies = new Set();
  for (const email of order) {
    if (performance.now() > deadline) throw new Error(`Stopped at BENCH_MAX_SECONDS (${MAX_SECONDS} s)`);
    const { ms, body } = await request(url, email);
    times[email].push(ms);
    bodies.add(body);
  }
  if (bodies.size !== 1) throw new Error(`The answers differed: ${[...bodies].join(' / ')}`);
  const sorted = (list) => [...list].sort((a, b) => a - b);
  const known = sorted(times[KNOWN]);
  const unknown = sorted(times[UNKNOWN]);
  return {
    known: { p50: quantile(known, 0.5), p10: quantile(known, 0.1), p90: quantile(known, 0.9) },
    unknown: { p50: quantile(unknown, 0.5), p10: quantile(unknown, 0.1), p90: quantile(unknown, 0.9) },
  };
}

let stack;
try {
  await migrateAll({ env });
  stack = await startStack({ env, port: await freePort(), output: { dir: tmpdir() } });
  const registered = await fetch(`${stack.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_known', email: KNOWN, password: 'bench-password' }),
  });
  if (registered.status !== 201) throw new Error(`Could not register: ${registered.status}`);

  const machine = () =>
    `${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`;
  console.log(`Date: ${new Date().toISOString()}`);
  console.log(`Machine: ${machine()}`);
  console.log(`${ROUNDS} rounds of ${REQUESTS} requests per kind, one at a time, shuffled`);
  await round(stack.url, 50); // warm-up, not reported

  console.log('');
  console.log('| round | known p50 ms | unknown p50 ms | p50 difference ms | known p10-p90 ms | unknown p10-p90 ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  const results = [];
  for (let index = 1; index <= ROUNDS; index += 1) {
    const result = await round(stack.url, REQUESTS);
    results.push(result);
    const { known, unknown } = result;
    console.log(
      `| ${index} | ${known.p50.toFixed(2)} | ${unknown.p50.toFixed(2)} | ${(known.p50 - unknown.p50).toFixed(2)} | ` +
        `${known.p10.toFixed(2)}-${known.p90.toFixed(2)} | ${unknown.p10.toFixed(2)}-${unknown.p90.toFixed(2)} |`,
    );
  }
  const differences = results.map((result) => result.known.p50 - result.unknown.p50);
  console.log('');
  console.log(
    `Median of the round medians: known ${median(results.map((r) => r.known.p50)).toFixed(2)} ms ` +
      `(${spread(results.map((r) => r.known.p50))}), unknown ${median(results.map((r) => r.unknown.p50)).toFixed(2)} ms ` +
      `(${spread(results.map((r) => r.unknown.p50))}); difference ${median(differences).toFixed(2)} ms ` +
      `(${spread(differences)}). Load average at the end: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
  );
} finally {
  await stack?.stop();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
