#!/usr/bin/env node
// `npm run bench:events`: the live events (GET /api/events) on the whole stack from its build.
//  1. Latency: BENCH_JOBS one-image generations (local generator, LOCAL_GENERATION_MS=0), one after
//     the other; each timed from its GenerationCompleted's commit (the job's completed_at, set in
//     that transaction) to this process reading `generation.completed` on the user's event stream,
//     and, for comparison, to the event reaching a plain NATS subscriber.
//  2. Idle streams: BENCH_STREAMS event streams held open by a child process (./lib/stream-holder.mjs,
//     so their heartbeats are not read on the event loop that times the requests; one user, its cap raised for the run),
//     the gateway's resident memory before and after (after a heartbeat has gone to every stream),
//     and GET /api/user's latency at BENCH_RATE requests/s for BENCH_SECONDS (default 30) without and with them,
//     in BENCH_STREAM_ROUNDS rounds (default 3; the streams are closed between rounds), each window
//     with them BENCH_SETTLE_SECONDS (default 10) after they opened, so it times holding them, not
//     the burst of opening them.
//  3. Waiting tabs (./lib/waiting-tabs.mjs, a stack of its own with a long training and long
//     generations): the requests the SPA in headless Chromium makes in BENCH_TAB_SECONDS on the
//     Models page while a training runs and on the Create page while a generation runs, with the
//     live events and with the stream refused (its polling fallback).
// BENCH_PARTS picks some of them (default `latency,streams,tabs`).
// Its own database and NATS namespace, removed at the end; everything on 127.0.0.1. Uses
// DATABASE_URL / NATS_URL like the tests. Results go to docs/benchmarks.md by hand.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { apiCaller, buyPackage, trainBenchModel } from './lib/api.mjs';
import { openStream } from './lib/event-stream.mjs';
import { createBenchEnvironment } from './lib/bench-environment.mjs';
import { httpGetter, median, openLoop, quantile, summarize } from './lib/load.mjs';
import { measureWaitingTabs } from './lib/waiting-tabs.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const JOBS = Number(process.env.BENCH_JOBS ?? 100);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
// A window's p99 is its 1 %-worst request: at 100/s, 30 s gives it 30 requests to rest on, not 10
// (one garbage collection in a 10 s window decides it).
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const STREAM_ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 3);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const HEARTBEAT_MS = 15_000;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'latency,streams,tabs').split(','));

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-events-'));
const bench = await createBenchEnvironment('events', {
  DATA_DIR: dataDir,
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
  LOCAL_TRAINING_MS: '200',
  LOCAL_GENERATION_MS: '0',
  PROVIDER_RATE_LIMIT_PER_MINUTE: '0',
  ACCESS_TOKEN_TTL_SECONDS: '3600',
  EVENT_STREAMS_PER_USER: String(STREAMS + 10),
  EVENT_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
});
const { env } = bench;

/** The gateway process's resident memory, in MiB. */
const residentMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** A user with 1,105 credits (four Professional Packs) and a completed model. */
async function prepareUser(call) {
  const registered = await call('/api/register', {
    method: 'POST',
    body: { username: 'bench_events', email: 'bench-events@example.com', password: 'bench-password' },
  });
  const cookie = registered.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  for (let pack = 0; pack < 4; pack += 1) await buyPackage(call, cookie, 'professional');
  const modelId = await trainBenchModel(call, cookie, { modelName: 'Bench model', triggerWord: 'bench_face' });
  return { cookie, modelId };
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms (n=${sorted.length})`;
};

let stack;
let nats;
const streams = [];
/** Child processes holding idle streams (part 2). */
const holders = [];
const db = new pg.Client({ connectionString: env.DATABASE_URL });
console.log(`Date: ${new Date().toISOString()}`);
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
try {
  // The first stack serves parts 1 and 2; the waiting tabs start their own.
  if (PARTS.has('latency') || PARTS.has('streams')) {
    await migrateAll({ env });
    stack = await startStack({ env, port: await freePort(), output: { dir: dataDir }, readyTimeoutMs: 180_000 });
    const port = Number(new URL(stack.url).port);
    const call = apiCaller(stack.url);
    const { cookie, modelId } = await prepareUser(call);
    await db.connect();
    const gatewayPid = stack.children.get('gateway').pid;

    if (PARTS.has('latency')) await measureLatency({ port, call, cookie, modelId });
    if (PARTS.has('streams')) await measureIdleStreams({ port, cookie, gatewayPid });
  }
} finally {
  for (const stream of streams) stream.close();
  for (const holder of holders) holder.kill();
  await nats?.close();
  await db.end().catch(() => undefined);
  await stack?.stop();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
if (PARTS.has('tabs')) await measureWaitingTabs();
console.log(
  `\nLoad average at the end: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);

/** 1. GenerationCompleted → the event stream. */
async function measureLatency({ port, call, cookie, modelId }) {
  const onStream = new Map();
  const onNats = new Map();
  nats = await connect({ servers: bench.natsUrl });
  const subscription = nats.subscribe(`${bench.namespace}.events.generation.GenerationCompleted.v1`, {
    callback: (_error, message) => onNats.set(message.json().payload.jobId, Date.now()),
  });
  const waiting = new Map();
  streams.push(
    await openStream(port, cookie, (type, data) => {
      if (type !== 'generation.completed') return;
      onStream.set(data.jobId, Date.now());
      waiting.get(data.jobId)?.();
    }),
  );
  const jobIds = [];
  for (let index = 0; index < JOBS + 5; index += 1) {
    const response = await call('/api/generate-avatar', {
      method: 'POST',
      body: { promptText: 'bench_face, portrait', customModelId: modelId, numOutputs: 1 },
      cookie,
    });
    if (response.status !== 201) throw new Error(`generate answered ${response.status}`);
    const { jobId } = response.json;
    await new Promise((resolve) => {
      if (onStream.has(jobId)) resolve();
      else waiting.set(jobId, resolve);
    });
    // The first five warm the path up.
    if (index >= 5) jobIds.push(jobId);
  }
  subscription.unsubscribe();
  const { rows } = await db.query(
    `SELECT id, completed_at FROM generation.generation_jobs WHERE id = ANY($1) AND status = 'completed'`,
    [jobIds],
  );
  const committed = new Map(rows.map((row) => [row.id, row.completed_at.getTime()]));
  console.log(`GenerationCompleted → event stream: ${stats(jobIds.map((id) => onStream.get(id) - committed.get(id)))}`);
  console.log(
    `GenerationCompleted → a NATS subscriber: ${stats(jobIds.filter((id) => onNats.has(id)).map((id) => onNats.get(id) - committed.get(id)))}`,
  );
}

/** 2. Idle streams: STREAM_ROUNDS rounds, each a window without them and one with them. */
async function measureIdleStreams({ port, cookie, gatewayPid }) {
  const get = httpGetter(port);
  const readUser = async () => {
    const { status } = await get('/api/user', { cookie });
    if (status !== 200) throw new Error(`GET /api/user answered ${status}`);
  };
  await openLoop(readUser, { rate: RATE, seconds: 3 });
  const line = (name, summary) =>
    `GET /api/user at ${RATE}/s, ${name}: p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms, errors ${summary.errors}`;
  const rounds = [];
  for (let round = 1; round <= STREAM_ROUNDS; round += 1) {
    const idleMiB = residentMiB(gatewayPid);
    const without = summarize(await openLoop(readUser, { rate: RATE, seconds: SECONDS }));
    const holder = await holdStreams({ port, cookie });
    // Opening 2,000 streams is a burst of allocations; the window measures holding them, after it.
    await settle();
    const withStreamsMiB = residentMiB(gatewayPid);
    const withStreams = summarize(await openLoop(readUser, { rate: RATE, seconds: SECONDS }));
    await holder.stop();
    await settle();
    // Memory is told for the first round: later ones start from a heap that has held streams before.
    const memory =
      round === 1
        ? `; gateway RSS ${idleMiB.toFixed(0)} MiB → ${withStreamsMiB.toFixed(0)} MiB (+${(withStreamsMiB - idleMiB).toFixed(0)} MiB)`
        : '';
    console.log(
      `Round ${round}: ${STREAMS} idle streams opened in ${(holder.openedInMs / 1000).toFixed(1)} s${memory}`,
    );
    console.log(`  ${line('no streams', without)}`);
    console.log(`  ${line(`${STREAMS} streams`, withStreams)}`);
    rounds.push({ without, withStreams });
  }
  get.close();
  const medianOf = (pick) => median(rounds.map(pick)).toFixed(1);
  console.log(
    `Medians of ${rounds.length} rounds: p50 ${medianOf((r) => r.without.p50)} → ${medianOf((r) => r.withStreams.p50)} ms, p99 ${medianOf((r) => r.without.p99)} → ${medianOf((r) => r.withStreams.p99)} ms`,
  );
}

/** Waits SETTLE_SECONDS: what the gateway allocated to open or close the streams is collected meanwhile. */
function settle() {
  return new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
}

/**
 * Opens STREAMS idle streams in a process of their own (so reading their heartbeats does not share
 * this event loop, which times the requests); resolves once every one has had a heartbeat.
 */
async function holdStreams({ port, cookie }) {
  const holder = fork(new URL('./lib/stream-holder.mjs', import.meta.url), [], {
    env: { ...process.env, HOLDER_PORT: String(port), HOLDER_COOKIE: cookie, HOLDER_STREAMS: String(STREAMS) },
  });
  holders.push(holder);
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  const fromHolder = (kind) =>
    new Promise((resolve, reject) => {
      holder.on('message', (message) => message.kind === kind && resolve(message));
      void exited.then((code) => reject(new Error(`The stream holder stopped (${code})`)));
    });
  const { openedInMs } = await fromHolder('opened');
  // Every stream has had a heartbeat written (and its buffers) before memory is read.
  await fromHolder('heartbeats');
  return {
    openedInMs,
    /** Closes the streams (the holder closes them when its parent lets go) and waits for it to end. */
    async stop() {
      holder.disconnect();
      await exited;
      holders.splice(holders.indexOf(holder), 1);
    },
  };
}
