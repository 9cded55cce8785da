#!/usr/bin/env node
// `npm run bench:deletion`: the whole stack from its build (NODE_ENV=production, local providers).
// Each round makes a user with BENCH_SELFIES selfies (uploaded through the gateway), a trained
// model, and BENCH_AVATARS avatars (seeded straight into media's table and storage: generating 500
// would measure the generator, not the deletion), then times DELETE /api/account until every
// service is done: auth answered, and media, training, generation, billing and reporting have each
// handled UserDeleted (their inbox rows), media's purge job has deleted the objects
// (erased_users.objects_purged_at) and none of the user's files is left on disk.
// Completion is read from the database every 20 ms. Uses DATABASE_URL / NATS_URL like the tests.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { createBenchEnvironment } from './lib/bench-environment.mjs';
import { apiCaller, buyPackage } from './lib/api.mjs';
import { selfie } from './lib/images.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');
const { LocalObjectStorage } = await import('../../libs/storage/dist/index.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SELFIES = Number(process.env.BENCH_SELFIES ?? 30);
const AVATARS = Number(process.env.BENCH_AVATARS ?? 500);
const SERVICES = ['auth', 'media', 'training', 'generation', 'billing', 'reporting'];
const PASSWORD = 'bench-password';

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-deletion-'));
const bench = await createBenchEnvironment('deletion', {
  DATA_DIR: dataDir,
  LOCAL_TRAINING_MS: '200',
  MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '0',
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
});
const storage = new LocalObjectStorage(join(dataDir, 'objects'));
const db = new pg.Pool({ connectionString: bench.env.DATABASE_URL, max: 2 });
// An idle connection ended by the database's drop at cleanup is no failure of the run.
db.on('error', (error) => {
  if (error.code !== '57P01') console.error(`The bench's database connection failed: ${error.message}`);
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let stack;
let call;

async function waitUntil(probe, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

function filesUnder(userId) {
  try {
    return readdirSync(join(dataDir, 'objects', 'users', String(userId)), {
      recursive: true,
      withFileTypes: true,
    }).filter((entry) => entry.isFile() && !entry.name.endsWith('.meta.json')).length;
  } catch {
    return 0;
  }
}

/** A user with the selfies, a completed model and the avatars; returns their id and cookie. */
async function prepareUser(round, images, avatar) {
  const username = `bench_del_${round}`;
  const registered = await call('/api/register', {
    method: 'POST',
    body: { username, email: `${username}@example.com`, password: PASSWORD },
  });
  if (registered.status !== 201) throw new Error(`Registering failed: ${JSON.stringify(registered.json)}`);
  const cookie = registered.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const userId = registered.json.id;
  await buyPackage(call, cookie, 'starter');

  const selfieIds = [];
  for (let start = 0; start < images.length; start += 20) {
    const form = new FormData();
    images
      .slice(start, start + 20)
      .forEach((image, index) =>
        form.append('selfies', new Blob([image], { type: 'image/jpeg' }), `s${start + index}.jpg`),
      );
    const uploaded = await call('/api/upload-selfies', { method: 'POST', body: form, cookie });
    if (uploaded.status !== 201) throw new Error(`Upload failed: ${JSON.stringify(uploaded.json)}`);
    selfieIds.push(...uploaded.json.uploadedFiles.map((file) => file.id));
  }
  const trained = await call('/api/train-model', {
    method: 'POST',
    body: { modelName: 'Bench', triggerWord: 'bench_face', referenceImageIds: selfieIds.slice(0, 12) },
    cookie,
  });
  if (trained.status !== 201) throw new Error(`Training failed: ${JSON.stringify(trained.json)}`);
  await waitUntil(
    async () => (await call('/api/custom-models', { cookie })).json.some((model) => model.status === 'completed'),
    'the model trained',
  );

  // The avatars as media keeps them: a JPEG and a WebP thumbnail each, and a row.
  const keys = Array.from({ length: AVATARS }, () => `users/${userId}/avatars/${randomUUID()}`);
  for (let start = 0; start < keys.length; start += 50) {
    await Promise.all(
      keys
        .slice(start, start + 50)
        .flatMap((base) => [
          storage.put(`${base}.jpg`, avatar.image, { contentType: 'image/jpeg' }),
          storage.put(`${base}.thumb.webp`, avatar.thumbnail, { contentType: 'image/webp' }),
        ]),
    );
  }
  await db.query(
    `INSERT INTO media.avatars (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key)
     SELECT $1, 'bench_face, portrait', NULL, 'bench:' || base, md5(base) || md5(base || 'share'), base || '.jpg', base || '.thumb.webp'
     FROM unnest($2::text[]) AS base`,
    [userId, keys],
  );
  return { userId, cookie };
}

/** When each service finished with the user (ms after `startedAt`), once all have. */
async function completion(userId, since) {
  const rows = await db.query(
    `SELECT 'media' AS service, max(processed_at) AS at FROM media.inbox WHERE consumer LIKE '%UserDeleted%' AND processed_at >= $2
     UNION ALL SELECT 'media-objects', objects_purged_at FROM media.erased_users WHERE user_id = $1
     UNION ALL SELECT 'training', max(processed_at) FROM training.inbox WHERE consumer LIKE '%UserDeleted%' AND processed_at >= $2
     UNION ALL SELECT 'generation', max(processed_at) FROM generation.inbox WHERE consumer LIKE '%UserDeleted%' AND processed_at >= $2
     UNION ALL SELECT 'billing', max(processed_at) FROM billing.inbox WHERE consumer LIKE '%UserDeleted%' AND processed_at >= $2
     UNION ALL SELECT 'reporting', max(processed_at) FROM reporting.inbox WHERE consumer LIKE '%UserDeleted%' AND processed_at >= $2`,
    [userId, since],
  );
  const done = Object.fromEntries(rows.rows.map((row) => [row.service, row.at]));
  const services = ['media', 'media-objects', 'training', 'generation', 'billing', 'reporting'];
  if (!services.every((service) => done[service])) return undefined;
  if (filesUnder(userId) !== 0) return undefined;
  return Object.fromEntries(services.map((service) => [service, done[service].getTime() - since.getTime()]));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;

try {
  const images = await Promise.all(Array.from({ length: SELFIES }, (_, index) => selfie(index)));
  const picture = await selfie(99);
  const avatar = {
    image: await sharp(picture).resize(1024, 1024).jpeg({ quality: 90 }).toBuffer(),
    thumbnail: await sharp(picture).resize(256, 256).webp().toBuffer(),
  };
  await migrateAll({ env: bench.env });
  stack = await startStack({ env: bench.env, port: await freePort(), output: { dir: dataDir } });
  call = apiCaller(stack.url);

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  );
  console.log(
    `A user with ${SELFIES} selfies, a trained model and ${AVATARS} avatars (${2 * (SELFIES + AVATARS)} objects), ${ROUNDS} rounds\n`,
  );
  console.log(
    '| round | objects | DELETE answered ms | media rows | training | generation | billing | reporting | media objects purged | all done ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const results = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const { userId, cookie } = await prepareUser(round, images, avatar);
    const objects = filesUnder(userId);
    // Let the preparation's own work (training's events, mails) settle first.
    await sleep(1_000);
    const since = new Date((await db.query('SELECT now() AS now')).rows[0].now);
    const started = performance.now();
    const deleted = await call('/api/account', { method: 'DELETE', body: { password: PASSWORD }, cookie });
    const answered = performance.now() - started;
    if (deleted.status !== 200) throw new Error(`Deleting failed: ${deleted.status} ${JSON.stringify(deleted.json)}`);
    await waitUntil(() => completion(userId, since), 'every service to finish');
    const total = performance.now() - started;
    const times = await completion(userId, since);
    results.push({ answered, total, ...times });
    console.log(
      `| ${round} | ${objects} | ${answered.toFixed(0)} | ${times.media} | ${times.training} | ${times.generation} | ${times.billing} | ${times.reporting} | ${times['media-objects']} | ${total.toFixed(0)} |`,
    );
  }
  const column = (key) => results.map((result) => result[key]);
  console.log(
    `| median (min-max) | | ${median(column('answered')).toFixed(0)} (${spread(column('answered'))}) | ${SERVICES.slice(
      1,
    )
      .map((service) => `${median(column(service))} (${spread(column(service))})`)
      .join(
        ' | ',
      )} | ${median(column('media-objects'))} (${spread(column('media-objects'))}) | ${median(column('total')).toFixed(0)} (${spread(column('total'))}) |`,
  );
  console.log(
    `\nload average after the run: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}`,
  );
} finally {
  await stack?.stop();
  await db.end();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
