import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErrorCode, UploadSelfiesResponse } from '@likeness/contracts';
import {
  INTERNAL_AUTH_HEADER,
  INTERNAL_USER_HEADER,
  createServiceApp,
  internalAuthToken,
  loadConfig,
  runMigrations,
} from '@likeness/nest-kit';
import { LocalObjectStorage } from '@likeness/storage';
import { createTestRpcClient, createTestServiceEnvironment, tempDir } from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { type MediaConfig, mediaConfigSchema } from '../src/media.config.js';
import { mediaService } from '../src/media.service-definition.js';

export interface UploadFile {
  name: string;
  bytes: Buffer;
  type?: string;
  /** The multipart field; `selfies` unless a test says otherwise. */
  field?: string;
}

export interface MediaUnderTest {
  app: NestFastifyApplication;
  config: MediaConfig;
  /** Media's HTTP port, where the gateway sends /internal/* calls. */
  url: string;
  rpc: Awaited<ReturnType<typeof createTestRpcClient>>['rpc'];
  db: pg.Pool;
  /** The same directory the service stores into, read directly. */
  storage: LocalObjectStorage;
  /** A call as the gateway makes it: internal token, and the user when given. */
  internal(path: string, init?: RequestInit & { userId?: number }): Promise<Response>;
  upload(userId: number, files: UploadFile[]): Promise<Response>;
  /** Keys stored under `users/<userId>/`. */
  objectsOf(userId: number): Promise<string[]>;
  selfieCount(userId: number): Promise<number>;
  close(): Promise<void>;
}

/** Media in process on a fresh database, NATS namespace and storage directory. */
export async function startMedia(label: string, extraEnv: Record<string, string> = {}): Promise<MediaUnderTest> {
  const env = await createTestServiceEnvironment(label);
  const dataDir = tempDir(`media-${label}`);
  const config = loadConfig(mediaConfigSchema, { ...env.env, DATA_DIR: dataDir, ...extraEnv });
  await runMigrations(mediaService.database(config));
  const app = await createServiceApp(mediaService, config);
  const url = await app.getUrl();
  const client = await createTestRpcClient(env.natsUrl, env.namespace, 30_000);
  const db = new pg.Pool({ connectionString: env.database.url, max: 2 });
  const storage = new LocalObjectStorage(join(dataDir, 'objects'));
  const token = internalAuthToken(config.MEDIA_SECRET);

  const internal = (path: string, { userId, headers, ...init }: RequestInit & { userId?: number } = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: {
        [INTERNAL_AUTH_HEADER]: token,
        ...(userId !== undefined ? { [INTERNAL_USER_HEADER]: String(userId) } : {}),
        ...(headers as Record<string, string>),
      },
    });

  return {
    app,
    config,
    url,
    rpc: client.rpc,
    db,
    storage,
    internal,
    upload: (userId, files) => {
      const form = new FormData();
      for (const file of files) {
        form.append(
          file.field ?? 'selfies',
          new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }),
          file.name,
        );
      }
      return internal('/internal/selfies', { method: 'POST', body: form, userId });
    },
    objectsOf: async (userId) => {
      const keys: string[] = [];
      for await (const object of storage.list(`users/${userId}/`)) keys.push(object.key);
      return keys;
    },
    selfieCount: async (userId) =>
      (await db.query(`SELECT count(*)::int AS n FROM media.uploaded_images WHERE user_id = $1`, [userId])).rows[0].n,
    close: async () => {
      await client.close();
      await db.end();
      await app.close();
      await env.database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An error answer in the contract's shape, with the status its code implies. */
export async function expectError(
  response: Response,
  status: number,
  code: ErrorCode,
  message?: string | RegExp,
): Promise<{ message: string; issues?: { path: string; message: string }[] }> {
  const body = (await response.json()) as { status: number; code: string; message: string };
  expect({ httpStatus: response.status, status: body.status, code: body.code }).toEqual({
    httpStatus: status,
    status,
    code,
  });
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return body;
}

export async function uploaded(response: Response): Promise<UploadSelfiesResponse> {
  if (response.status !== 201) throw new Error(`Upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as UploadSelfiesResponse;
}

/** An upload that failed left nothing: no row, no object under the user's prefix. */
export async function expectNothingStored(media: MediaUnderTest, userId: number): Promise<void> {
  expect(await media.selfieCount(userId)).toBe(0);
  expect(await media.objectsOf(userId)).toEqual([]);
}
