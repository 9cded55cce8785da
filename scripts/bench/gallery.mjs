#!/usr/bin/env node
// `npm run bench:gallery`: the whole stack from its build.
//  1. ZIP: a user with BENCH_ZIP_AVATARS avatars (1024 px noise JPEGs, seeded straight into media's
//     table and storage) downloads them all as one ZIP through the gateway, as JPEG (streamed as stored) and
//     as PNG (each converted by sharp). Media's resident memory (VmRSS) is sampled every 20 ms:
//     its peak during each download against its level just before.
//  2. Priority: 2 worker processes, one job at a time each, LOCAL_GENERATION_MS=1000. A standard
//     account queues BENCH_BACKLOG one-image jobs; then an account with a Professional Pack queues
//     BENCH_PRIORITY_JOBS, one every 1.5 s while the backlog lasts. A priority job's wait is the time
//     from its POST to its worker's "attempt 1 started" log line.
// BENCH_PARTS=zip or =priority runs one part. Uses DATABASE_URL / NATS_URL like the tests; images
// go to a temporary DATA_DIR.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { startBenchStack } from './lib/bench-environment.mjs';
import { apiCaller, buyPackage, trainBenchModel } from './lib/api.mjs';

const { LocalObjectStorage } = await import('../../libs/storage/dist/index.js');

const ZIP_AVATARS = Number(process.env.BENCH_ZIP_AVATARS ?? 200);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 100);
const PRIORITY_JOBS = Number(process.env.BENCH_PRIORITY_JOBS ?? 20);
const JOB_MS = 1_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const residentMiB = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

async function startBench(label, workers, extraEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), `likeness-bench-gallery-${label}-`));
  const { bench, stack } = await startBenchStack(`gallery${label}`, {
    dataDir,
    generationWorkers: workers,
    env: {
      // Production asks for these by name; the mail written here is never read.
      MAIL_PROVIDER: 'mailbox',
      PUBLIC_URL: 'http://127.0.0.1',
      LOCAL_TRAINING_MS: '200',
      PROVIDER_RATE_LIMIT_PER_MINUTE: '0',
      ...extraEnv,
    },
  });
  const call = apiCaller(stack.url);
  return {
    bench,
    stack,
    call,
    dataDir,
    async register(username) {
      const { headers } = await call('/api/register', {
        method: 'POST',
        body: { username, email: `${username}@example.com`, password: 'bench-password' },
      });
      const cookie = headers.getSetCookie().map((setCookie) => setCookie.split(';', 1)[0]);
      return { cookie: cookie.join('; '), userId: (await call('/api/user', { cookie: cookie.join('; ') })).json.id };
    },
    async stop() {
      await stack.stop();
      await bench.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Downloads the ZIP, reading it as fast as loopback allows, while sampling media's memory. */
async function zipRound(run, cookie, pid, format) {
  const before = residentMiB(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentMiB(pid));
  }, 20);
  const started = performance.now();
  const response = await fetch(`${run.stack.url}/api/avatars/zip?format=${format}`, { headers: { cookie } });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, residentMiB(pid));
  return { format, status: response.status, mib: bytes / 2 ** 20, seconds, before, peak };
}

async function zipBench() {
  const run = await startBench('zip', 0, {});
  try {
    const { cookie, userId } = await run.register('bench_zip');
    // Noise, so the ZIP is large (a photo's detail at worst): an archive held in memory would show.
    const image = await sharp({
      create: {
        width: 1024,
        height: 1024,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const thumbnail = await sharp(image).resize(256).webp().toBuffer();
    const storage = new LocalObjectStorage(join(run.dataDir, 'objects'));
    const bases = Array.from({ length: ZIP_AVATARS }, () => `users/${userId}/avatars/${randomUUID()}`);
    for (const base of bases) {
      await storage.put(`${base}.jpg`, image, { contentType: 'image/jpeg' });
      await storage.put(`${base}.thumb.webp`, thumbnail, { contentType: 'image/webp' });
    }
    const db = new pg.Pool({ connectionString: run.bench.env.DATABASE_URL, max: 1 });
    await db.query(
      `INSERT INTO media.avatars (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key)
       SELECT $1::int, 'bench_face, portrait, studio lighting', NULL, 'bench:' || base, md5(base) || md5(base || 'share'),
              base || '.jpg', base || '.thumb.webp'
       FROM unnest($2::text[]) AS base`,
      [userId, bases],
    );
    await db.end();
    const pid = run.stack.children.get('media').pid;
    console.log(
      `\n## ZIP of ${ZIP_AVATARS} avatars (1024 px JPEGs of ${(image.length / 1024).toFixed(0)} KiB, each with its prompt)\n`,
    );
    console.log(
      '| format | status | ZIP MiB | seconds | media RSS before MiB | media RSS peak during MiB | peak − before MiB |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const format of ['jpeg', 'png', 'jpeg', 'png']) {
      const round = await zipRound(run, cookie, pid, format);
      console.log(
        `| ${round.format} | ${round.status} | ${round.mib.toFixed(1)} | ${round.seconds.toFixed(2)} | ${round.before.toFixed(0)} | ${round.peak.toFixed(0)} | ${(round.peak - round.before).toFixed(0)} |`,
      );
    }
  } finally {
    await run.stop();
  }
}

/** When each job's first attempt started, from the workers' JSON logs (pino's `time`, ms). */
function attemptStarts(dataDir) {
  const starts = new Map();
  for (const worker of ['generation-worker-1', 'generation-worker-2']) {
    const log = readFileSync(join(dataDir, `${worker}.log`), 'utf8');
    for (const line of log.split('\n')) {
      const match = /"time":(\d+).*"msg":"Job ([0-9a-f-]{36}): attempt 1 started"/.exec(line);
      if (match) starts.set(match[2], Number(match[1]));
    }
  }
  return starts;
}

async function priorityBench() {
  const run = await startBench('priority', 2, {
    LOCAL_GENERATION_MS: String(JOB_MS),
    WORKER_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  });
  try {
    const standard = await run.register('bench_standard');
    const professional = await run.register('bench_professional');
    for (let pack = 0; pack < Math.ceil((BACKLOG * 5 + 30) / 125); pack += 1)
      await buyPackage(run.call, standard.cookie, 'creator');
    await buyPackage(run.call, professional.cookie, 'professional');
    const [standardModel, professionalModel] = await Promise.all([
      trainBenchModel(run.call, standard.cookie, { modelName: 'Standard', triggerWord: 'std_face' }),
      trainBenchModel(run.call, professional.cookie, { modelName: 'Professional', triggerWord: 'pro_face' }),
    ]);
    const generate = async (who, modelId, prompt) => {
      const response = await run.call('/api/generate-avatar', {
        method: 'POST',
        body: { promptText: prompt, customModelId: modelId, numOutputs: 1 },
        cookie: who.cookie,
      });
      if (response.status !== 201)
        throw new Error(`generate answered ${response.status}: ${JSON.stringify(response.json)}`);
      return response.json.jobId;
    };
    const backlogStarted = Date.now();
    const standardIds = [];
    for (let index = 0; index < BACKLOG; index += 1)
      standardIds.push(await generate(standard, standardModel, `std_face portrait ${index}`));
    const priority = [];
    for (let index = 0; index < PRIORITY_JOBS; index += 1) {
      const requestedAt = Date.now();
      priority.push({
        requestedAt,
        jobId: await generate(professional, professionalModel, `pro_face portrait ${index}`),
      });
      await sleep(1_500);
    }
    for (;;) {
      const starts = attemptStarts(run.dataDir);
      if ([...standardIds, ...priority.map((job) => job.jobId)].every((id) => starts.has(id))) break;
      await sleep(500);
    }
    const starts = attemptStarts(run.dataDir);
    const waits = priority.map(({ jobId, requestedAt }) => starts.get(jobId) - requestedAt);
    const lastStandard = Math.max(...standardIds.map((id) => starts.get(id)));
    const firstPriority = Math.min(...priority.map(({ jobId }) => starts.get(jobId)));
    const lastPriority = Math.max(...priority.map(({ jobId }) => starts.get(jobId)));
    const standardDuringPriority = standardIds.filter(
      (id) => starts.get(id) >= firstPriority && starts.get(id) <= lastPriority,
    ).length;
    // The workers' pace: the backlog's starts (2 workers) spread over their span.
    const standardStarts = standardIds.map((id) => starts.get(id)).sort((a, b) => a - b);
    const jobSeconds =
      ((standardStarts.at(-1) - standardStarts[0]) * 2) / (standardStarts.length - 1 + priority.length) / 1000;
    console.log(
      `\n## Priority: ${BACKLOG} standard jobs queued, then ${PRIORITY_JOBS} priority jobs one every 1.5 s; 2 worker processes × 1 slot, LOCAL_GENERATION_MS=${JOB_MS}\n`,
    );
    console.log('| priority waits (POST → attempt started) | ms |');
    console.log('| --- | --- |');
    for (const p of [50, 95, 99]) console.log(`| p${p} | ${percentile(waits, p)} |`);
    console.log(`| max | ${Math.max(...waits)} |`);
    console.log(`\nOne job's duration (the workers' pace over the backlog): ${jobSeconds.toFixed(2)} s.`);
    console.log(
      `Standard jobs started while priority jobs were running: ${standardDuringPriority}; the backlog's last job started ${((lastStandard - backlogStarted) / 1000).toFixed(1)} s after it was queued.`,
    );
  } finally {
    await run.stop();
  }
}

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}, load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
const parts = (process.env.BENCH_PARTS ?? 'zip,priority').split(',');
if (parts.includes('zip')) await zipBench();
if (parts.includes('priority')) await priorityBench();
