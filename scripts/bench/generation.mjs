#!/usr/bin/env node
// `npm run bench:generation`: the whole stack from its build with the local image generator.
//  1. Scaling: LOCAL_GENERATION_MS=500, one job at a time per worker process. One stack starts
//     with 4 worker processes; it is measured with 4, then 2, then 1 (the others stopped with
//     SIGTERM). Each round queues BENCH_JOBS_PER_WORKER × workers one-image runs at once; jobs per
//     second = jobs / (first request → last GenerationCompleted), the median of BENCH_ROUNDS rounds.
//  2. Latency: LOCAL_GENERATION_MS=0, one worker process; BENCH_LATENCY_JOBS runs one after the
//     other, each timed from POST /api/generate-avatar to its GenerationCompleted event.
// Completion is read from the GenerationCompleted events on NATS (no polling load). The
// provider rate limit is off here (it is Replicate's, and would cap the 4-worker run).
// Uses DATABASE_URL / NATS_URL like the tests; images go to a temporary DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { createBenchEnvironment } from './lib/bench-environment.mjs';
import { apiCaller, buyPackage, trainBenchModel } from './lib/api.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2,4')
  .split(',')
  .filter(Boolean)
  .map(Number)
  .sort((a, b) => b - a);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const JOBS_PER_WORKER = Number(process.env.BENCH_JOBS_PER_WORKER ?? 12);
const LATENCY_JOBS = Number(process.env.BENCH_LATENCY_JOBS ?? 60);
/**
 * The plainest prompt: no art style or lighting for the local generator to paint, so what is
 * measured is the pipeline and the queue, not the preview generator's CPU on a 2-core machine
 * (with Replicate, images are made elsewhere).
 */
const PLAIN_PROMPT = 'bench_face, portrait';

/** A stack of its own, a user with a completed model and enough credits; `events` sees completions. */
async function prepare(label, workers, extraEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-generation-'));
  const bench = await createBenchEnvironment(label, {
    DATA_DIR: dataDir,
    LOCAL_TRAINING_MS: '200',
    ...(process.env.BENCH_KEEP_LOGS ? { LOG_LEVEL: 'info' } : {}),
    PROVIDER_RATE_LIMIT_PER_MINUTE: '0',
    ...extraEnv,
  });
  await migrateAll({ env: bench.env });
  const stack = await startStack({
    env: bench.env,
    port: await freePort(),
    output: { dir: dataDir },
    generationWorkers: workers,
  });
  const call = apiCaller(stack.url);
  const registered = await call('/api/register', {
    method: 'POST',
    body: { username: `bench_${label}`, email: `bench-${label}@example.com`, password: 'bench-password' },
  });
  const cookie = registered.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  for (let pack = 0; pack < 6; pack += 1) await buyPackage(call, cookie, 'professional');
  const modelId = await trainBenchModel(call, cookie, { modelName: 'Bench model', triggerWord: 'bench_face' });

  const nats = await connect({ servers: bench.natsUrl });
  const completions = new Map();
  const waiters = new Map();
  const subscription = nats.subscribe(`${bench.namespace}.events.generation.GenerationCompleted.v1`);
  void (async () => {
    for await (const message of subscription) {
      const { jobId } = message.json().payload;
      const at = performance.now();
      completions.set(jobId, at);
      waiters.get(jobId)?.(at);
    }
  })();
  const completed = (jobId) =>
    completions.has(jobId)
      ? Promise.resolve(completions.get(jobId))
      : new Promise((resolve) => waiters.set(jobId, resolve));
  const generate = async (prompt) => {
    const response = await call('/api/generate-avatar', {
      method: 'POST',
      body: { promptText: prompt, customModelId: modelId, numOutputs: 1 },
      cookie,
    });
    if (response.status !== 201)
      throw new Error(`generate answered ${response.status}: ${JSON.stringify(response.json)}`);
    return response.json.jobId;
  };
  /** Stops worker processes (SIGTERM: they finish their jobs) until `count` remain. */
  const keepWorkers = async (count) => {
    for (const [app, child] of stack.children) {
      const number = Number(/^generation-worker-(\d+)$/.exec(app)?.[1] ?? 0);
      if (number <= count || child.exitCode !== null || child.signalCode !== null) continue;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
  };
  return {
    generate,
    completed,
    keepWorkers,
    logDir: dataDir,
    async stop() {
      await nats.drain();
      await stack.stop();
      await bench.cleanup();
      if (!process.env.BENCH_KEEP_LOGS) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  `\n## Scaling: LOCAL_GENERATION_MS=500, WORKER_CONCURRENCY=1, one image per job, prompt "${PLAIN_PROMPT}", ${ROUNDS} rounds each\n`,
);
console.log(
  '| worker processes | jobs per round | seconds (median round) | jobs/s median (each round) | × one worker |',
);
console.log('| --- | --- | --- | --- | --- |');
const results = new Map();
if (WORKER_COUNTS.length > 0) {
  const scaling = await prepare('scale', WORKER_COUNTS[0], { LOCAL_GENERATION_MS: '500', WORKER_CONCURRENCY: '1' });
  try {
    for (const workers of WORKER_COUNTS) {
      await scaling.keepWorkers(workers);
      // Warm every worker (first sharp pipelines, first RPCs) before the clock starts.
      await Promise.all(
        Array.from({ length: workers * 2 }, async (_, index) =>
          scaling.completed(await scaling.generate(`bench_face warm-up ${index}`)),
        ),
      );
      const jobs = JOBS_PER_WORKER * workers;
      const rounds = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const started = performance.now();
        const ids = await Promise.all(Array.from({ length: jobs }, () => scaling.generate(PLAIN_PROMPT)));
        const finishedAt = Math.max(...(await Promise.all(ids.map((id) => scaling.completed(id)))));
        rounds.push({ seconds: (finishedAt - started) / 1000, rate: (jobs * 1000) / (finishedAt - started) });
      }
      rounds.sort((a, b) => a.rate - b.rate);
      results.set(workers, { jobs, ...rounds[Math.floor(rounds.length / 2)], all: rounds.map((r) => r.rate) });
    }
  } finally {
    await scaling.stop();
  }
}
const single = results.get(1)?.rate;
for (const workers of [...WORKER_COUNTS].reverse()) {
  const { jobs, seconds, rate, all } = results.get(workers);
  console.log(
    `| ${workers} | ${jobs} | ${seconds.toFixed(2)} | ${rate.toFixed(2)} (${all.map((r) => r.toFixed(2)).join(', ')}) | ${single ? (rate / single).toFixed(2) : '-'} |`,
  );
}

console.log(`\n## Latency: LOCAL_GENERATION_MS=0, one worker process, one job at a time, prompt "${PLAIN_PROMPT}"\n`);
const run = await prepare('latency', 1, { LOCAL_GENERATION_MS: '0' });
try {
  for (let index = 0; index < 5; index += 1) await run.completed(await run.generate(`bench_face warm-up ${index}`));
  const times = [];
  const requests = [];
  for (let index = 0; index < LATENCY_JOBS; index += 1) {
    const started = performance.now();
    const jobId = await run.generate(PLAIN_PROMPT);
    requests.push(performance.now() - started);
    times.push((await run.completed(jobId)) - started);
  }
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  };
  const row = (what, values) =>
    `| ${what} | ${LATENCY_JOBS} | ${[0.5, 0.9, 0.99, 1].map((q) => quantile(values, q).toFixed(0)).join(' | ')} |`;
  console.log('| from POST /api/generate-avatar to | jobs | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row('its answer (201 with the job id)', requests));
  console.log(row('the job completed (GenerationCompleted)', times));
  if (process.env.BENCH_KEEP_LOGS) console.log(`\nlogs: ${run.logDir}`);
  console.log(
    `\nload average after the run: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await run.stop();
}
