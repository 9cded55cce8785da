#!/usr/bin/env node
// `npm run bench:accounts`: the whole stack from its build, and bounded load on loopback:
//   - GET /api/user  (gateway verifies the JWT, asks auth over NATS)   32 in flight, 10 s
//   - POST /api/login (argon2id verification in auth)                    4 in flight, 10 s
//   - POST /api/login burst: BENCH_LOGIN_BURST (default 400) logins sent at once, 3 rounds;
//     each login's latency and answer (200, 503 with Retry-After, anything else)
// Each phase stops at its time or request bound. Uses DATABASE_URL / NATS_URL like the tests
// (the machine's servers by default). Results go to docs/benchmarks.md by hand, with the machine.
import { cpus, loadavg, totalmem } from 'node:os';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const bench = await createBenchEnvironment('accounts', {
  LOGIN_LIMIT_PER_IP: '1000000',
  LOGIN_LIMIT_PER_ACCOUNT: '1000000',
});
const { env } = bench;

async function phase(name, { concurrency, seconds, maxRequests, request }) {
  const latencies = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && issued < maxRequests) {
        issued += 1;
        const t0 = performance.now();
        const response = await request();
        latencies.push(performance.now() - t0);
        if (!response.ok) errors += 1;
        await response.arrayBuffer();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  const row = {
    name,
    concurrency,
    requests: latencies.length,
    errors,
    perSecond: (latencies.length / elapsed).toFixed(0),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
  console.log(
    `| ${row.name} | ${row.concurrency} | ${row.requests} | ${row.errors} | ${row.perSecond} | ${row.p50} | ${row.p95} | ${row.p99} |`,
  );
  return row;
}

const BURST = Number(process.env.BENCH_LOGIN_BURST ?? 400);
const BURST_ROUNDS = 3;

/** Sends `size` logins at once and waits for every answer (each bounded by the gateway's RPC timeout). */
async function burst(round, size) {
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: size }, async () => {
      const t0 = performance.now();
      const response = await fetch(`${stack.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench_user', password: 'bench-password' }),
      }).catch(() => undefined);
      await response?.arrayBuffer();
      return {
        ms: performance.now() - t0,
        status: response?.status ?? 0,
        retryAfter: response?.headers.get('retry-after') ?? undefined,
      };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ok = results.filter((result) => result.status === 200);
  const busy = results.filter((result) => result.status === 503 && result.retryAfter);
  const others = results.filter((result) => result.status !== 200 && !(result.status === 503 && result.retryAfter));
  const other = others.length;
  const otherStatuses = [...new Set(others.map((result) => result.status))].join(', ');
  const at = (list, p) => {
    const sorted = list.map((result) => result.ms).sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(0) : '-';
  };
  console.log(
    `| burst ${round} | ${size} | ${ok.length} | ${busy.length} | ${other}${other ? ` (${otherStatuses})` : ''} | ${at(ok, 0.5)} | ${at(ok, 0.99)} | ${at(busy, 0.99)} | ${seconds.toFixed(1)} |`,
  );
  return { ok: ok.length, busy: busy.length, other, p50: Number(at(ok, 0.5)), seconds };
}

let stack;
try {
  await migrateAll({ env });
  stack = await startStack({ env, port: await freePort(), output: { dir: '/tmp' } });
  const register = await fetch(`${stack.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_user', email: 'bench@example.com', password: 'bench-password' }),
  });
  const cookie = register.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  console.log('| phase | in flight | requests | errors | req/s | p50 ms | p95 ms | p99 ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  // Warm-up, not reported.
  await phase('warm-up', {
    concurrency: 8,
    seconds: 2,
    maxRequests: 2_000,
    request: () => fetch(`${stack.url}/api/user`, { headers: { cookie } }),
  }).catch(() => undefined);
  await phase('GET /api/user', {
    concurrency: 32,
    seconds: 10,
    maxRequests: 100_000,
    request: () => fetch(`${stack.url}/api/user`, { headers: { cookie } }),
  });
  await phase('POST /api/login', {
    concurrency: 4,
    seconds: 10,
    maxRequests: 5_000,
    request: () =>
      fetch(`${stack.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench_user', password: 'bench-password' }),
      }),
  });
  console.log('');
  console.log(
    '| round | logins at once | 200 | 503 + Retry-After | other | 200 p50 ms | 200 p99 ms | 503 p99 ms | seconds |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const rounds = [];
  for (let round = 1; round <= BURST_ROUNDS; round += 1) {
    rounds.push(await burst(round, BURST));
    // Let the last round's queue drain before the next.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const spread = (values) => `${Math.min(...values)}-${Math.max(...values)}`;
  console.log(
    `Burst median: ${median(rounds.map((r) => r.ok))} succeeded (${spread(rounds.map((r) => r.ok))}), ` +
      `${median(rounds.map((r) => r.other))} failed otherwise (${spread(rounds.map((r) => r.other))}), ` +
      `p50 ${median(rounds.map((r) => r.p50))} ms (${spread(rounds.map((r) => r.p50))}), ` +
      `load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
  );
} finally {
  await stack?.stop();
  await bench.cleanup();
}
