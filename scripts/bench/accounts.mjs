#!/usr/bin/env node
// `npm run bench:accounts`: the whole stack from its build, and bounded load on loopback:
//   - GET /api/user  (gateway verifies the JWT, asks auth over NATS)   32 in flight, 10 s
//   - POST /api/login (argon2id verification in auth)                    4 in flight, 10 s
// Each phase stops at its time or request bound. Uses DATABASE_URL / NATS_URL like the tests
// (the machine's servers by default). Results go to docs/benchmarks.md by hand, with the machine.
import { cpus, totalmem } from 'node:os';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const { freePort } = await import('../../libs/testing/dist/servers/free-port.js');
const { migrateAll, startStack } = await import('../../libs/testing/dist/servers/stack.js');

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
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
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
} finally {
  await stack?.stop();
  await bench.cleanup();
}
