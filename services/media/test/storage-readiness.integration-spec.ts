import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type S3ServerHandle, startS3Server, tempDir } from '@likeness/testing';
import { type MediaUnderTest, startMedia } from './media-harness.js';

/** A loopback port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const s3Env = (s3: S3ServerHandle, overrides: Record<string, string> = {}) => ({
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: s3.bucket,
  S3_REGION: s3.region,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  ...overrides,
});

async function readiness(media: MediaUnderTest): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${media.url}/health`);
  return { status: response.status, body: await response.json() };
}

// Kubernetes sends uploads only to ready pods: a media replica whose object storage does not
// answer must say so on /health instead of taking uploads it would answer with a 500.
describe('media readiness and its object storage', () => {
  let s3: S3ServerHandle;

  beforeAll(async () => {
    s3 = await startS3Server({ bucket: 'likeness-readiness' });
  });

  afterAll(async () => {
    await s3?.stop();
  });

  it('should be ready when its S3 bucket answers', async () => {
    const media = await startMedia('ready-s3', s3Env(s3));
    try {
      await expect(readiness(media)).resolves.toEqual({
        status: 200,
        body: { status: 'ok', checks: { database: 'up', nats: 'up', storage: 'up' } },
      });
    } finally {
      await media.close();
    }
  });

  it('should be unready, and still alive, while its S3 endpoint cannot be reached', async () => {
    const media = await startMedia('unready-s3', s3Env(s3, { S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` }));
    try {
      await expect(readiness(media)).resolves.toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'up', nats: 'up', storage: 'down' } },
      });
      // Liveness asks only about the process: Kubernetes must not restart the pod for it.
      expect((await fetch(`${media.url}/health/live`)).status).toBe(200);
    } finally {
      await media.close();
    }
  });

  it('should be unready while its bucket does not exist yet (before the bucket Job ran)', async () => {
    const media = await startMedia('no-bucket', s3Env(s3, { S3_BUCKET: 'likeness-not-created' }));
    try {
      await expect(readiness(media)).resolves.toMatchObject({ status: 503, body: { checks: { storage: 'down' } } });
    } finally {
      await media.close();
    }
  });

  it('should be ready on local files it can write', async () => {
    const media = await startMedia('local-files', { STORAGE_DRIVER: 'local' });
    try {
      await expect(readiness(media)).resolves.toMatchObject({ status: 200, body: { checks: { storage: 'up' } } });
    } finally {
      await media.close();
    }
  });

  it('should be unready when its local directory cannot be made', async () => {
    const dir = tempDir('media-not-a-dir');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    const media = await startMedia('local-unwritable', { STORAGE_DRIVER: 'local', DATA_DIR: join(file, 'data') });
    try {
      await expect(readiness(media)).resolves.toMatchObject({ status: 503, body: { checks: { storage: 'down' } } });
    } finally {
      await media.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
