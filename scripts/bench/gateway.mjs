#!/usr/bin/env node
// `npm run bench:gateway`: the price of the split. The same authenticated reads, GET /api/user
// (auth's user and billing's balance) and GET /api/avatars (media's list, for a user with 50
// avatars), measured three ways in one run against one database:
//   a. through the gateway over HTTP (the whole stack from its build, production settings);
//   b. the services' RPCs called over NATS from this process with the kit's RpcClient (the calls
//      the gateway makes for the route: both of /api/user's side by side, as the gateway does);
//   c. the monolith: one Fastify process (./lib/monolith.mjs) verifying the same cookie the same
//      way and running the same SQL.
// Each round measures, for each route and each way: latency with an open loop at BENCH_RATE
// requests/s (default 200) for BENCH_LATENCY_SECONDS (default 10), and throughput with
// BENCH_CONCURRENCY requests (default 32) in flight for BENCH_SATURATION_SECONDS (default 8).
// Each phase is cut in slices of BENCH_SLICE_SECONDS (default 2) taken by the three ways in turn
// (a b c a b c ..., the order rotated each round), so a burst of other work on the machine falls
// on all three alike. BENCH_ROUNDS rounds (default 3, at least 3); the summary
// gives the gateway's overhead (a - b) at p50 and p99 and the throughput ratio a / c, medians of
// the rounds with their spread, and the load average. Bounded by BENCH_MAX_SECONDS (default 1200).
//
// `npm run bench:gateway -- --profile`: instead of the rounds, runs each route's saturation phase
// through the gateway with `--cpu-prof` on the gateway, auth, billing and media, and prints where
// each process spent that window.
//
// `npm run bench:gateway -- --tracing`: the same rounds with OpenTelemetry on in every app,
// exporting to a collector stand-in in this process (spans counted, then dropped): run it after
// a plain run to read what tracing costs.
//
// Its own database and NATS namespace, removed at the end; everything on 127.0.0.1. Uses
// DATABASE_URL / NATS_URL like the tests. Results go to docs/benchmarks.md by hand.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { createBenchEnvironment } from './lib/bench-environment.mjs';
import { monotonicMicros, profileTables, summarizeProfile } from './lib/cpu-profile.mjs';
import { httpGetter, median, openLoop, saturate, spread, summarize } from './lib/load.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');
const { RpcClient } = await import('../../libs/nest-kit/dist/index.js');
const { AuthRpc, BillingRpc, MediaRpc } = await import('../../libs/contracts/dist/index.js');

const RATE = Number(process.env.BENCH_RATE ?? 200);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SATURATION_SECONDS = Number(process.env.BENCH_SATURATION_SECONDS ?? 8);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 2);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 1200);
const AVATARS = 50;
const PROFILE = process.argv.includes('--profile');
const TRACING = process.argv.includes('--tracing');
const PROFILED_APPS = ['gateway', 'auth', 'billing', 'media'];

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-gateway-'));
// BENCH_PROFILE_DIR keeps the profiles (for a closer look in a profile viewer); otherwise they go with the run.
const profileDir = process.env.BENCH_PROFILE_DIR ?? join(dataDir, 'profiles');
const bench = await createBenchEnvironment('gateway', {
  DATA_DIR: dataDir,
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
  // What production runs at: the access log and every other info line are part of the price.
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  // The one token lasts the run, so no request takes the refresh path.
  ACCESS_TOKEN_TTL_SECONDS: '3600',
});
const { env, natsUrl, namespace } = bench;
const deadline = performance.now() + MAX_SECONDS * 1000;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** The monolith baseline in a process of its own; resolves once it listens. */
function startMonolith() {
  const child = spawn(process.execPath, [new URL('./lib/monolith.mjs', import.meta.url).pathname], {
    env: { ...process.env, DATABASE_URL: env.DATABASE_URL, JWT_SECRET: env.JWT_SECRET, MEDIA_SECRET: env.MEDIA_SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) resolve({ port: Number(port), pid: child.pid, stop: () => stopChild(child) });
    });
    child.on('exit', (code) => reject(new Error(`The monolith exited (code ${code}) before it listened`)));
  });
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A user signed in through the gateway, with AVATARS avatars in media's table. */
async function seedUser(url) {
  const response = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'bench_reader',
      email: 'reader@bench.example',
      password: 'Bench-Reader-Pass-2049',
    }),
  });
  if (response.status !== 201) throw new Error(`Could not register: ${response.status} ${await response.text()}`);
  const { id: userId } = await response.json();
  // Only the access token: a request it does not authenticate fails instead of refreshing.
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith('likeness_access='));
  if (!cookie) throw new Error('The registration set no access cookie');
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    // Rows as media stores them (the list reads no image bytes); a few minutes apart, newest last.
    await db.query(
      `INSERT INTO media.avatars (user_id, prompt_text, storage_key, thumbnail_key, custom_model_id, share_token, source_ref, created_at)
       SELECT $1::int, 'portrait of bench_reader_face, number ' || g, 'users/' || $1::int || '/avatars/' || gen_random_uuid() || '.jpg',
              'users/' || $1::int || '/avatars/' || gen_random_uuid() || '.webp', NULL,
              encode(sha256((random()::text || g)::bytea), 'hex'), 'bench:' || g,
              now() - (g * interval '3 minutes')
       FROM generate_series(1, $2) g`,
      [userId, AVATARS],
    );
  } finally {
    await db.end();
  }
  return { userId, cookie };
}

/** The three ways to make each read; each `send` throws unless it got the full answer. */
function paths({ gatewayPort, monolithPort, rpc, userId, cookie }) {
  const gateway = httpGetter(gatewayPort);
  const monolith = httpGetter(monolithPort);
  const viaHttp = (get, path) => async () => {
    const { status, body } = await get(path, { cookie });
    if (status !== 200) throw new Error(`${path}: ${status} ${body.toString()}`);
    return JSON.parse(body.toString());
  };
  return {
    routes: {
      'GET /api/user': {
        a: viaHttp(gateway, '/api/user'),
        b: async () => {
          const [user, balance] = await Promise.all([
            rpc.call(AuthRpc.getUser, { userId }),
            rpc.call(BillingRpc.getBalance, { userId }),
          ]);
          // The gateway's CurrentUserService.toCurrentUser.
          return {
            id: user.id,
            username: user.username,
            email: user.email,
            role: user.role,
            credits: balance.available,
          };
        },
        c: viaHttp(monolith, '/api/user'),
      },
      'GET /api/avatars': {
        a: viaHttp(gateway, `/api/avatars?limit=${AVATARS}`),
        b: () => rpc.call(MediaRpc.listAvatars, { userId, limit: AVATARS }),
        c: viaHttp(monolith, `/api/avatars?limit=${AVATARS}`),
      },
    },
    close() {
      gateway.close();
      monolith.close();
    },
  };
}

const WAYS = { a: 'a. gateway (HTTP)', b: 'b. RPC over NATS', c: 'c. monolith (HTTP)' };

function checkDeadline() {
  if (performance.now() > deadline) throw new Error(`Stopped at BENCH_MAX_SECONDS (${MAX_SECONDS} s)`);
}

/** CPU time (user + system, ms) each process has used so far: the kernel's count, whatever the load. */
function cpuTimes(pids) {
  const ticks = 100; // USER_HZ on Linux
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      if (pid === 'self') {
        const usage = process.cpuUsage();
        return [name, (usage.user + usage.system) / 1000];
      }
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [utime, stime] = stat
          .slice(stat.lastIndexOf(')') + 2)
          .split(' ')
          .slice(11, 13)
          .map(Number);
        return [name, ((utime + stime) * 1000) / ticks];
      } catch {
        return [name, 0];
      }
    }),
  );
}

/** The processes whose CPU a phase counts: the gateway, the services together, the monolith, this one. */
let measured = {};

/**
 * `seconds` of `run(way)` for each way, in slices taken in turn; each way's slices summarized
 * together, with the CPU each group of processes spent per answered request.
 */
async function interleaved(order, seconds, run) {
  const samples = Object.fromEntries(order.map((way) => [way, []]));
  const cpu = Object.fromEntries(order.map((way) => [way, {}]));
  for (let done = 0; done < seconds; done += SLICE_SECONDS) {
    for (const way of order) {
      checkDeadline();
      const before = cpuTimes(measured);
      samples[way].push(await run(way, Math.min(SLICE_SECONDS, seconds - done)));
      const after = cpuTimes(measured);
      for (const name of Object.keys(measured)) {
        const group = name.split(':')[0];
        cpu[way][group] = (cpu[way][group] ?? 0) + after[name] - before[name];
      }
    }
  }
  return Object.fromEntries(
    order.map((way) => {
      const summary = summarize(...samples[way]);
      const perRequest = Object.fromEntries(
        Object.entries(cpu[way]).map(([group, ms]) => [group, ms / Math.max(1, summary.requests)]),
      );
      return [way, { ...summary, cpuPerRequest: perRequest }];
    }),
  );
}

/** One round: each route, the ways taking turns in an order rotated by the round. */
async function round(routes, index) {
  const results = {};
  const order = ['a', 'b', 'c'].map((_, position, ways) => ways[(position + index) % ways.length]);
  for (const [route, ways] of Object.entries(routes)) {
    const latency = await interleaved(order, LATENCY_SECONDS, (way, seconds) =>
      openLoop(ways[way], { rate: RATE, seconds }),
    );
    const throughput = await interleaved(order, SATURATION_SECONDS, (way, seconds) =>
      saturate(ways[way], { concurrency: CONCURRENCY, seconds }),
    );
    results[route] = Object.fromEntries(
      order.map((way) => [way, { latency: latency[way], throughput: throughput[way], load: loadavg()[0] }]),
    );
  }
  return results;
}

const cpuCell = (perRequest) =>
  Object.entries(perRequest)
    .map(([group, ms]) => `${group} ${ms.toFixed(3)}`)
    .join(', ');

function printRound(index, results) {
  console.log('');
  console.log(`Round ${index} (load average at its end ${load()})`);
  console.log('');
  console.log(
    `| route | way | p50 ms | p90 ms | p99 ms | sent/s | errors | saturated req/s | saturated p50 ms | errors | CPU ms per request at saturation | load (1 min) |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [route, ways] of Object.entries(results)) {
    for (const way of ['a', 'b', 'c']) {
      const { latency: l, throughput: t, load: atEnd } = ways[way];
      console.log(
        `| ${route} | ${WAYS[way]} | ${l.p50.toFixed(2)} | ${l.p90.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.perSecond.toFixed(0)} | ${l.errors} | ` +
          `${t.perSecond.toFixed(0)} | ${t.p50.toFixed(2)} | ${t.errors} | ${cpuCell(t.cpuPerRequest)} | ${atEnd.toFixed(1)} |`,
      );
    }
  }
}

function printSummary(rounds) {
  console.log('');
  console.log(`Medians of ${rounds.length} rounds (spread: lowest-highest of the rounds)`);
  console.log('');
  console.log('| route | way | p50 ms | p90 ms | p99 ms | saturated req/s |\n| --- | --- | --- | --- | --- | --- |');
  const of = (route, way, pick) => rounds.map((results) => pick(results[route][way]));
  for (const route of Object.keys(rounds[0])) {
    for (const way of ['a', 'b', 'c']) {
      const cell = (pick, digits = 2) =>
        `${median(of(route, way, pick)).toFixed(digits)} (${spread(of(route, way, pick), digits)})`;
      console.log(
        `| ${route} | ${WAYS[way]} | ${cell((r) => r.latency.p50)} | ${cell((r) => r.latency.p90)} | ${cell((r) => r.latency.p99)} | ${cell((r) => r.throughput.perSecond, 0)} |`,
      );
    }
  }
  console.log('');
  console.log("CPU ms per request at saturation, medians of the rounds (the kernel's count, so load-independent)");
  console.log('');
  console.log(
    '| route | way | ' +
      Object.keys(rounds[0][Object.keys(rounds[0])[0]].a.throughput.cpuPerRequest).join(' | ') +
      ' |',
  );
  console.log(
    '| --- | --- |' +
      ' --- |'.repeat(Object.keys(rounds[0][Object.keys(rounds[0])[0]].a.throughput.cpuPerRequest).length),
  );
  for (const route of Object.keys(rounds[0])) {
    for (const way of ['a', 'b', 'c']) {
      const groups = Object.keys(rounds[0][route][way].throughput.cpuPerRequest);
      const cells = groups.map((group) => median(of(route, way, (r) => r.throughput.cpuPerRequest[group])).toFixed(3));
      console.log(`| ${route} | ${WAYS[way]} | ${cells.join(' | ')} |`);
    }
  }
  console.log('');
  console.log(
    '| route | overhead a - b at p50 ms (goal ≤ 1) | overhead a - b at p99 ms (goal ≤ 3) | throughput a / c (goal ≥ 0.5) |\n| --- | --- | --- | --- |',
  );
  for (const route of Object.keys(rounds[0])) {
    const p50 = rounds.map((results) => results[route].a.latency.p50 - results[route].b.latency.p50);
    const p99 = rounds.map((results) => results[route].a.latency.p99 - results[route].b.latency.p99);
    const ratio = rounds.map(
      (results) => results[route].a.throughput.perSecond / results[route].c.throughput.perSecond,
    );
    console.log(
      `| ${route} | ${median(p50).toFixed(2)} (${spread(p50)}) | ${median(p99).toFixed(2)} (${spread(p99)}) | ${median(ratio).toFixed(2)} (${spread(ratio)}) |`,
    );
  }
}

/** The saturation phase of each route through the gateway, each process's profile of it. */
async function profile(routes, stack) {
  const windows = {};
  for (const [route, ways] of Object.entries(routes)) {
    const from = monotonicMicros();
    const result = summarize(await saturate(ways.a, { concurrency: CONCURRENCY, seconds: SATURATION_SECONDS }));
    windows[route] = { from, to: monotonicMicros(), requests: result.requests };
    console.log(
      `${route} through the gateway: ${result.perSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, ${result.errors} errors (load ${load()})`,
    );
  }
  await stack.stop();
  const apps = { 'GET /api/user': ['gateway', 'auth', 'billing'], 'GET /api/avatars': ['gateway', 'media'] };
  for (const [route, window] of Object.entries(windows)) {
    for (const app of apps[route]) {
      const dir = join(profileDir, app);
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) throw new Error(`${app} wrote no profile into ${dir}`);
      console.log('');
      console.log(`#### ${app} during ${route} at saturation`);
      console.log('');
      const summary = summarizeProfile(join(dir, file), window);
      console.log(`CPU per request: ${(summary.busyMs / window.requests).toFixed(3)} ms. ${profileTables(summary)}`);
    }
  }
}

/** With --tracing: an OTLP/HTTP endpoint that reads each export, counts its bytes and answers. */
async function startCollector() {
  const collected = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('error', () => response.destroy());
    request.on('data', (chunk) => (collected.bytes += chunk.length));
    request.on('end', () => {
      collected.exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, collected, url: `http://127.0.0.1:${server.address().port}` };
}

let stack;
let monolith;
let nats;
let ways;
let collector;
try {
  if (TRACING) {
    collector = await startCollector();
    env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  }
  await migrateAll({ env });
  const profiled = Object.fromEntries(
    PROFILED_APPS.map((app) => [
      app,
      { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${join(profileDir, app)}`.trim() },
    ]),
  );
  stack = await startStack({
    env,
    port: await freePort(),
    output: { dir: dataDir },
    // A shared machine under load can take a while to start seven apps.
    readyTimeoutMs: 180_000,
    ...(PROFILE ? { appEnv: profiled } : {}),
  });
  const { userId, cookie } = await seedUser(stack.url);
  monolith = await startMonolith();
  nats = await connect({ servers: natsUrl, name: 'bench-gateway' });
  const rpc = new RpcClient(nats, { url: natsUrl, namespace, name: 'bench-gateway' }, 10_000);
  measured = {
    'gateway:': stack.children.get('gateway').pid,
    ...Object.fromEntries(
      [...stack.children].filter(([app]) => app !== 'gateway').map(([app, child]) => [`services:${app}`, child.pid]),
    ),
    'monolith:': monolith.pid,
    'benchmark:': 'self',
  };
  ways = paths({ gatewayPort: Number(new URL(stack.url).port), monolithPort: monolith.port, rpc, userId, cookie });

  // The three ways must give the same answer, or they are not the same read.
  for (const [route, each] of Object.entries(ways.routes)) {
    const [a, b, c] = await Promise.all([each.a(), each.b(), each.c()]);
    if (!isDeepStrictEqual(a, b) || !isDeepStrictEqual(a, c)) {
      throw new Error(`${route}: the answers differ:\n${JSON.stringify({ a, b, c }, null, 1)}`);
    }
    if (route === 'GET /api/avatars' && a.items.length !== AVATARS) {
      throw new Error(`${a.items.length} avatars, not ${AVATARS}`);
    }
  }

  console.log(`Date: ${new Date().toISOString()}`);
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load()}`,
  );
  console.log(
    `Open loop ${RATE}/s for ${LATENCY_SECONDS} s; saturation ${CONCURRENCY} in flight for ${SATURATION_SECONDS} s; logs at ${env.LOG_LEVEL}; tracing ${TRACING ? 'on' : 'off'}`,
  );
  // Warm-up, not reported: every path's code optimised, pools and connections open.
  for (const each of Object.values(ways.routes)) {
    for (const send of Object.values(each)) await saturate(send, { concurrency: 8, seconds: 2 });
  }

  if (PROFILE) {
    await profile(ways.routes, stack);
  } else {
    const rounds = [];
    for (let index = 1; index <= ROUNDS; index += 1) {
      const results = await round(ways.routes, index);
      rounds.push(results);
      printRound(index, results);
    }
    printSummary(rounds);
    console.log('');
    console.log(`Load average at the end: ${load()}`);
  }
} finally {
  ways?.close();
  await nats?.close();
  await monolith?.stop();
  await stack?.stop();
  if (collector) {
    console.log(
      `Tracing on: ${collector.collected.exports} exports, ${(collector.collected.bytes / 2 ** 20).toFixed(1)} MiB of spans`,
    );
    collector.server.close();
  }
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
