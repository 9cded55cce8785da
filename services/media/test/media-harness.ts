import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type Avatar, type ErrorCode, MediaRpc, type UploadSelfiesResponse } from '@likeness/contracts';
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
import { png } from './test-images.js';

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
  /**
   * POST /internal/selfies with these bytes exactly, through node:http (fetch frames every body
   * properly). See `sendRaw`.
   */
  rawUpload(userId: number, body: Buffer, options?: RawOptions): Promise<Response | undefined>;
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
    rawUpload: (userId, body, options) =>
      sendRaw(`${url}/internal/selfies`, body, {
        ...options,
        headers: { [INTERNAL_AUTH_HEADER]: token, [INTERNAL_USER_HEADER]: String(userId), ...options?.headers },
      }),
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

export interface RawOptions {
  headers?: Record<string, string>;
  /** `multipart/form-data; boundary=XX` unless given. */
  contentType?: string;
  /**
   * Announce more bytes than `body` holds, send `body`, wait this long and destroy the socket:
   * a client that goes away mid-upload. The answer is then `undefined`.
   */
  resetAfterMs?: number;
}

/**
 * A POST of raw bytes with node:http, as a broken or hostile client sends it: a body that ends
 * wherever it ends, or a connection dropped half-way. The answer comes back as a Response.
 */
export function sendRaw(url: string, body: Buffer, options: RawOptions = {}): Promise<Response | undefined> {
  const reset = options.resetAfterMs !== undefined;
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        ...options.headers,
        'content-type': options.contentType ?? 'multipart/form-data; boundary=XX',
        'content-length': String(reset ? body.length + 1024 * 1024 : body.length),
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        resolve(new Response(Buffer.concat(chunks), { status: response.statusCode, headers }));
      });
    });
    request.on('error', (error) => (reset ? resolve(undefined) : reject(error)));
    if (!reset) {
      request.end(body);
      return;
    }
    request.write(body);
    setTimeout(() => {
      request.destroy();
      resolve(undefined);
    }, options.resetAfterMs);
  });
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

/** A generated image kept for `userId`, staged under `staging/<sourceRef, sanitised>.png` as a worker does. */
export async function storeAvatar(media: MediaUnderTest, userId: number, sourceRef: string): Promise<Avatar> {
  const stagingKey = `staging/${sourceRef.replace(/[^A-Za-z0-9]/g, '-')}.png`;
  await media.storage.put(stagingKey, await png(256, 256), { contentType: 'image/png' });
  return media.rpc.call(MediaRpc.storeAvatar, {
    userId,
    promptText: 'me as an astronaut, high quality portrait',
    customModelId: 3,
    stagingKey,
    sourceRef,
  });
}

/** Where the gateway sends a public image URL (`/api/files/...`, `/api/shared/...`). */
export const internalPath = (publicUrl: string) =>
  publicUrl.replace(/^\/api\/files\//, '/internal/files/').replace(/^\/api\/shared\//, '/internal/shared/');
