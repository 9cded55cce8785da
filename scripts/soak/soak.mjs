#!/usr/bin/env node
// `npm run soak`: the whole product from its build under sustained mixed load, with faults
// injected, then an audit of the books (`npm run audit`, lib/audit.mjs).
//
// The stack (libs/devstack, supervised: a crashed app is restarted) runs on 127.0.0.1 with the
// local stand-ins for Stripe (the test processor: 4242… pays, 4000 0000 0000 0002 is declined),
// Replicate (the local trainer and generator) and SMTP (the mailbox), two generation worker
// processes and two billing replicas, its own nats-server, and a database of its own on
// DATABASE_URL's PostgreSQL reached through a TCP proxy of the soak's (lib/stall-proxy.mjs).
// SOAK_USERS simulated people (lib/users.mjs) use it through the gateway for SOAK_MINUTES while
// a chaos loop SIGKILLs a generation worker, then a billing replica (the supervisor restarts
// them), restarts NATS once, and stalls PostgreSQL (the proxy holds every byte) for a few seconds.
// Every request is recorded (route template, status, latency), every fault has a timestamped
// window, and at the end the soak prints and writes (under .data/soak/<time>/) requests served,
// errors by kind with the 5xx inside and outside fault windows, p50/p99 per route, and the
// audit. Exits 1 when the audit fails or a 5xx fell outside every fault window.
//
//   npm run soak -- --minutes 3 --users 4      (or SOAK_MINUTES, SOAK_USERS; --keep keeps the database)
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalObjectStorage } from '@likeness/storage';
import pg from 'pg';
import { selfie } from '../bench/lib/images.mjs';
import { runAudit } from './lib/audit-run.mjs';
import { SoakRecord, summarize, summaryMarkdown } from './lib/record.mjs';
import { startStallProxy } from './lib/stall-proxy.mjs';
import { recordingClient, simulateUser } from './lib/users.mjs';

const { ROOT, freePort, migrateAll, startNatsServer, startStack } = await import('@likeness/devstack');

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env.SOAK_MINUTES ?? '10' },
    users: { type: 'string', default: process.env.SOAK_USERS ?? '6' },
    'think-ms': { type: 'string', default: process.env.SOAK_THINK_MS ?? '1500' },
    'pg-stall-seconds': { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const USERS = Number(values.users);
const THINK_MS = Number(values['think-ms']);
const STALL_MS = Number(values['pg-stall-seconds']) * 1000;
if (!(MINUTES > 0) || !(USERS >= 1) || !(THINK_MS >= 0) || !(STALL_MS > 0)) {
  console.error('--minutes, --users, --think-ms and --pg-stall-seconds must be positive numbers');
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
const machine = `${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const runId = new Date().toISOString().replace(/[:.]/g, '-');
const outputDir = join(ROOT, '.data', 'soak', runId);
mkdirSync(outputDir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'likeness-soak-'));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `likeness_soak_${randomBytes(4).toString('hex')}`;
const directUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` });

const record = new SoakRecord();
const cleanups = [];
let stack;
let exitCode = 1;

try {
  say(`machine: ${machine}; load average ${loadAverage()}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  cleanups.push(async () => {
    if (!values.keep) await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  // The stack reaches PostgreSQL only through the proxy; the soak's own queries go direct.
  const proxy = await startStallProxy({ host: directUrl.hostname, port: Number(directUrl.port || 5432) });
  cleanups.push(() => proxy.close());
  const proxiedUrl = Object.assign(new URL(directUrl), { hostname: '127.0.0.1', port: String(proxy.port) });

  const nats = await startNatsServer({ storeDir: join(dataDir, 'nats'), logFile: join(dataDir, 'nats-server.log') });
  cleanups.push(() => nats.stop());

  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATABASE_URL: proxiedUrl.toString(),
    // Two billing replicas, two workers and five other apps share the server with other users.
    DATABASE_POOL_SIZE: '4',
    NATS_URL: nats.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MEDIA_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    // The local stand-ins, named (production refuses them unnamed).
    PAYMENTS_PROVIDER: 'local',
    INFERENCE_PROVIDER: 'local',
    MAIL_PROVIDER: 'mailbox',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOCAL_TRAINING_MS: '3000',
    LOCAL_GENERATION_MS: '1500',
    // A killed worker's jobs come back sooner than the default 30 s.
    JOB_ACK_WAIT_MS: '15000',
    // Every simulated person comes from 127.0.0.1.
    REGISTER_LIMIT_PER_IP: '100000',
    LOGIN_LIMIT_PER_IP: '100000',
  };
  say(`migrating ${database}, starting the stack (2 generation workers, 2 billing replicas)...`);
  await migrateAll({ env: { ...env, DATABASE_URL: directUrl.toString() } });
  const supervisorLog = [];
  stack = await startStack({
    env,
    port,
    output: { dir: dataDir },
    generationWorkers: 2,
    replicas: { billing: 2 },
    restart: true,
    readyTimeoutMs: 120_000,
    log: (line) => {
      supervisorLog.push(`${new Date().toISOString().slice(11, 19)} ${line}`);
      say(line);
    },
  });
  say(`stack at ${stack.url}; logs in ${dataDir}`);

  const selfies = await Promise.all(Array.from({ length: 12 }, (_, index) => selfie(index)));
  const call = recordingClient(stack.url, record);
  const startedAt = Date.now();
  const deadline = startedAt + MINUTES * 60_000;
  say(`${USERS} simulated users for ${MINUTES} min; load average ${loadAverage()}`);

  let seed = 1;
  const random = () => {
    // Deterministic per run order is not needed; a small LCG keeps runs comparable.
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const users = Array.from({ length: USERS }, async (_, index) => {
    await sleep((index * 2_000) % 20_000);
    await simulateUser({
      call,
      record,
      selfies,
      deadline,
      name: `soak${runId.slice(11, 19).replace(/-/g, '')}u${index + 1}`,
      random,
      thinkMs: THINK_MS,
      log: say,
    });
  });
  const chaos = chaosLoop({ stack, nats, proxy, startedAt, durationMs: deadline - startedAt });

  await Promise.all([...users, chaos]);
  const endedAt = Date.now();
  const loadAfter = loadAverage();
  say(`load over; load average ${loadAfter}. Auditing...`);

  const audit = await runAudit({
    databaseUrl: directUrl.toString(),
    natsUrl: nats.url,
    storage: new LocalObjectStorage(join(dataDir, 'objects')),
    deletedAvatarIds: record.deletedAvatarIds,
    settleMs: 180_000,
    log: say,
  });
  writeFileSync(join(outputDir, 'deleted-avatars.json'), JSON.stringify([...record.deletedAvatarIds]));
  const endings = await workEndings(directUrl.toString());

  const summary = {
    machine,
    loadAverageAfter: loadAfter,
    users: USERS,
    minutes: MINUTES,
    ...summarize(record, { startedAt, endedAt }),
    endings,
    unexpectedExits: stack.unexpectedExits(),
    supervisorLog,
    audit: { ok: audit.ok, unsettled: audit.unsettled, results: audit.results },
  };
  writeFileSync(join(outputDir, 'summary.json'), JSON.stringify(summary, null, 2));
  const markdown = [
    summaryMarkdown(summary, { machine, users: USERS, minutes: MINUTES, audit }),
    '',
    'How the jobs and trainings ended:',
    '',
    '| work | status | reason | count |',
    '| --- | --- | --- | --- |',
    ...endings.map((row) => `| ${row.work} | ${row.status} | ${row.reason ?? ''} | ${row.count} |`),
    '',
    `- load average after the load: ${loadAfter}`,
    '',
  ].join('\n');
  writeFileSync(join(outputDir, 'summary.md'), markdown);
  console.log(`\n${markdown}`);
  say(`written to ${outputDir}`);
  if (values.keep) say(`kept: database ${directUrl} and ${dataDir} (rerun the audit with npm run audit)`);
  exitCode = audit.ok && summary.serverErrors.outsideFaultWindows === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
} finally {
  await stack?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => say(`cleanup: ${error.message}`));
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

/** Jobs and trainings by how they ended, and why (read-only, on generation's and training's schemas). */
async function workEndings(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT 'generation' AS work, status, failure_reason AS reason, count(*)::int AS count
       FROM generation.generation_jobs GROUP BY 1, 2, 3
       UNION ALL SELECT 'training', status, failure_reason, count(*)::int FROM training.custom_models GROUP BY 1, 2, 3
       ORDER BY 1, 2, 4 DESC`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Waits until the gateway reports every service ready again (bounded). */
async function ready(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return true;
    await sleep(250);
  }
  return false;
}

/** SIGKILLs an app's process as a crash would; resolves once the supervisor has started a new one and the stack is ready. */
async function crash(app) {
  const before = stack.children.get(app);
  const fault = record.fault(`SIGKILL ${app}`, `pid ${before?.pid}`);
  before?.kill('SIGKILL');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && stack.children.get(app) === before) await sleep(100);
  const after = stack.children.get(app);
  const isReady = await ready(stack.url);
  fault.recovered(
    after === before ? 'not restarted within 2 min' : `restarted as pid ${after.pid}${isReady ? ', stack ready' : ''}`,
  );
}

/** The faults, spread over the run: a worker, a billing replica, NATS, PostgreSQL. */
async function chaosLoop({ nats, proxy, startedAt, durationMs }) {
  const at = async (share) => {
    const wait = startedAt + share * durationMs - Date.now();
    if (wait > 0) await sleep(wait);
  };
  await at(0.15);
  say('chaos: SIGKILL generation-worker-1');
  await crash('generation-worker-1');
  await at(0.3);
  say('chaos: SIGKILL billing-2');
  await crash('billing-2');
  await at(0.45);
  say('chaos: restarting nats-server');
  const natsFault = record.fault(
    'NATS restart',
    'the soak’s own nats-server, SIGTERM then started again on the same port and store',
  );
  await nats.stop();
  await sleep(2_000);
  await nats.start();
  natsFault.recovered((await ready(stack.url)) ? 'stack ready' : 'stack not ready within 2 min');
  await at(0.65);
  say(`chaos: stalling PostgreSQL for ${STALL_MS / 1000} s`);
  const stall = record.fault('PostgreSQL stalled', `every connection held by the proxy for ${STALL_MS / 1000} s`);
  await proxy.stall(STALL_MS);
  stall.recovered((await ready(stack.url)) ? 'stack ready' : 'stack not ready within 2 min');
  say('chaos: done');
}
