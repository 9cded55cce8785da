import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@likeness/devstack';
import { containerRuntimeAvailable } from '../containers.js';
import { signS3Request } from './sigv4.js';

/** The release docker-compose.yml runs, so tests and local stacks see the same server. */
export const MINIO_IMAGE = 'quay.io/minio/minio:RELEASE.2025-09-07T16-13-09Z';

export type S3ServerKind = 'minio' | 's3rver';

export interface S3ServerHandle {
  /** `http://host:port`; the server needs path-style addressing. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * s3rver accepts any well-formed SigV4 signature and keeps the bytes of an aborted upload;
   * tests of those behaviours can run only on MinIO.
   */
  kind: S3ServerKind;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';

/**
 * Which server `startS3Server` will start: MinIO when a container engine answers (and
 * LIKENESS_TEST_CONTAINERS is not `false`), s3rver otherwise.
 */
export async function s3ServerKind(): Promise<S3ServerKind> {
  return process.env['LIKENESS_TEST_CONTAINERS'] !== 'false' && (await containerRuntimeAvailable())
    ? 'minio'
    : 's3rver';
}

/** An S3-compatible server on loopback with one empty bucket, for one test suite. */
export async function startS3Server(options: { bucket?: string } = {}): Promise<S3ServerHandle> {
  const bucket = options.bucket ?? 'likeness-test';
  const server = (await s3ServerKind()) === 'minio' ? await startMinio() : await startS3rver();
  try {
    await createBucket({ ...server, bucket, region: REGION });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { ...server, bucket, region: REGION };
}

type Started = Omit<S3ServerHandle, 'bucket' | 'region'>;

/** Runs s3rver (argv[1]) on a free loopback port over a directory (argv[2]) and prints the port. */
const S3RVER_CHILD = `
const S3rver = require(process.argv[1]);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] })
  .run()
  .then(({ port }) => process.stdout.write('port=' + port + '\\n'), (error) => {
    console.error(error);
    process.exit(1);
  });
process.stdin.on('end', () => process.exit(0)).resume();
`;

/**
 * s3rver in a child process: its ListObjectsV2 continuation tokens use DES, which OpenSSL 3
 * keeps in its legacy provider, so without `--openssl-legacy-provider` every listing longer
 * than one page fails with a 500. The child exits when its stdin closes, so it does not
 * outlive a test run that is killed.
 */
async function startS3rver(): Promise<Started> {
  const directory = await mkdtemp(join(tmpdir(), 'likeness-s3-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', S3RVER_CHILD, createRequire(import.meta.url).resolve('s3rver'), directory],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };

  try {
    const port = await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`s3rver exited (code ${child.exitCode}): ${output.trim()}`);
        return /^port=(\d+)$/m.exec(output)?.[1];
      },
      { what: 's3rver to listen', intervalMs: 20 },
    );
    return {
      endpoint: `http://127.0.0.1:${port}`,
      // The only credentials s3rver knows.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      kind: 's3rver',
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startMinio(): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  // MinIO wants a secret of at least 8 characters.
  const accessKeyId = 'likeness-test';
  const secretAccessKey = 'likeness-test-secret';
  const container = await new GenericContainer(MINIO_IMAGE)
    .withEnvironment({ MINIO_ROOT_USER: accessKeyId, MINIO_ROOT_PASSWORD: secretAccessKey })
    .withCommand(['server', '/data'])
    .withExposedPorts(9000)
    .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
    .start();
  return {
    endpoint: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
    accessKeyId,
    secretAccessKey,
    kind: 'minio',
    stop: async () => {
      await container.stop();
    },
  };
}

async function createBucket(target: {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Promise<void> {
  const url = new URL(`/${target.bucket}`, target.endpoint);
  const response = await fetch(url, { method: 'PUT', headers: await signS3Request({ ...target, method: 'PUT', url }) });
  const body = await response.text();
  if (!response.ok && !body.includes('BucketAlreadyOwnedByYou')) {
    throw new Error(`Creating bucket ${target.bucket} at ${target.endpoint} failed: ${response.status} ${body}`);
  }
}
