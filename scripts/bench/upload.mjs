#!/usr/bin/env node
// `npm run bench:upload`: the whole stack from its build; one user uploads 20 images of just
// under 5 MB each in one request, ROUNDS times (deleting them between rounds: 30 is the cap),
// through the gateway to media (parse, validate, re-encode, thumbnail, store, record).
// Reports the time per upload and the peak resident memory (VmHWM) of the gateway and media
// processes: bounded memory means the 100 MB body was streamed, not buffered.
// Uses DATABASE_URL / NATS_URL like the tests; images go to a temporary DATA_DIR.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createBenchEnvironment } from './lib/bench-environment.mjs';

const { freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FILES = Number(process.env.BENCH_FILES ?? 20);
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-upload-'));
// The per-person pixel budget is off: this measures throughput, and one user uploads every round.
const bench = await createBenchEnvironment('upload', { DATA_DIR: dataDir, MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '0' });
const { env } = bench;

/** Peak and current resident memory of a process, in MiB, from /proc. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peak: kib('VmHWM') / 1024, current: kib('VmRSS') / 1024 };
}

/** A JPEG of noise as close under 5 MB as a few tries get (noise barely compresses). */
async function nearlyFiveMegabytes(seed) {
  let side = 1900;
  for (;;) {
    const pixels = randomBytes(side * side * 3);
    pixels[0] = seed;
    const jpeg = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer();
    if (jpeg.length <= MAX_FILE_BYTES && jpeg.length > MAX_FILE_BYTES * 0.9) return jpeg;
    side = Math.floor(side * Math.sqrt((MAX_FILE_BYTES * 0.96) / jpeg.length));
  }
}

let stack;
try {
  process.stdout.write(`Making ${FILES} images of nearly 5 MB... `);
  const images = await Promise.all(Array.from({ length: FILES }, (_, index) => nearlyFiveMegabytes(index)));
  const totalBytes = images.reduce((sum, image) => sum + image.length, 0);
  console.log(`${(totalBytes / 2 ** 20).toFixed(1)} MiB in all`);

  await migrateAll({ env });
  stack = await startStack({ env, port: await freePort(), output: { dir: dataDir } });
  const register = await fetch(`${stack.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_upload', email: 'bench-upload@example.com', password: 'bench-password' }),
  });
  const cookie = register.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const pids = { gateway: stack.children.get('gateway').pid, media: stack.children.get('media').pid };
  const before = { gateway: memoryOf(pids.gateway), media: memoryOf(pids.media) };

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  );
  console.log('| round | files | MiB | seconds | MiB/s | gateway peak RSS MiB | media peak RSS MiB |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const seconds = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const body = new FormData();
    images.forEach((image, index) =>
      body.append('selfies', new Blob([image], { type: 'image/jpeg' }), `bench-${index}.jpg`),
    );
    const started = performance.now();
    const response = await fetch(`${stack.url}/api/upload-selfies`, { method: 'POST', headers: { cookie }, body });
    const answer = await response.json();
    const elapsed = (performance.now() - started) / 1000;
    if (response.status !== 201) throw new Error(`Upload failed: ${response.status} ${JSON.stringify(answer)}`);
    seconds.push(elapsed);
    const gateway = memoryOf(pids.gateway);
    const media = memoryOf(pids.media);
    console.log(
      `| ${round} | ${answer.uploadedFiles.length} | ${(totalBytes / 2 ** 20).toFixed(1)} | ${elapsed.toFixed(2)} | ${(totalBytes / 2 ** 20 / elapsed).toFixed(1)} | ${gateway.peak.toFixed(0)} | ${media.peak.toFixed(0)} |`,
    );
    for (const file of answer.uploadedFiles) {
      await fetch(`${stack.url}/api/uploaded-images/${file.id}`, { method: 'DELETE', headers: { cookie } });
    }
  }
  seconds.sort((a, b) => a - b);
  console.log(
    `\nmedian ${seconds[Math.floor(seconds.length / 2)].toFixed(2)} s per ${FILES}-file upload; resident memory before the first upload: gateway ${before.gateway.current.toFixed(0)} MiB, media ${before.media.current.toFixed(0)} MiB`,
  );
} finally {
  await stack?.stop();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
