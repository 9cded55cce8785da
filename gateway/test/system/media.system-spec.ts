import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type Avatar, type AvatarsPage, MediaRpc, type UploadedImage } from '@likeness/contracts';
import { LocalObjectStorage } from '@likeness/storage';
import { createTestRpcClient } from '@likeness/testing';
import sharp from 'sharp';
import { type Session, apiClient, photo } from './api-client.js';
import { type RunningStack, callDeclaringBody, expectError, startTestStack } from './stack-harness.js';

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;
const call: ReturnType<typeof apiClient>['call'] = (...args) => api.call(...args);
const selfie = photo;

function form(files: { name: string; bytes: Buffer; type?: string }[]): FormData {
  const body = new FormData();
  for (const file of files)
    body.append('selfies', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }), file.name);
  return body;
}

/**
 * POST /api/upload-selfies with exactly these bytes, through node:http: fetch would frame the
 * body properly, and this one is deliberately broken.
 */
function rawUpload(session: Session, body: Buffer): Promise<{ status: number; json?: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${stack.url}/api/upload-selfies`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        'content-type': 'multipart/form-data; boundary=XX',
        'content-length': String(body.length),
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, text, json: text ? JSON.parse(text) : undefined });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

const list = async (session: Session) => (await call('/api/uploaded-images', { session })).json as UploadedImage[];

describe('selfies and avatars through the gateway', () => {
  let ada: Session;
  let bob: Session;
  let uploaded: UploadedImage[];

  beforeAll(async () => {
    stack = await startTestStack();
    api = apiClient(stack.url);
    ada = await api.register('ada_media');
    bob = await api.register('bob_media');
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should ask for a session before anything is uploaded or listed', async () => {
    expectError(
      await call('/api/upload-selfies', {
        method: 'POST',
        body: form([{ name: 'a.jpg', bytes: await selfie('jpeg') }]),
      }),
      401,
      'AUTH.UNAUTHENTICATED',
    );
    expectError(await call('/api/uploaded-images'), 401, 'AUTH.UNAUTHENTICATED');
    expectError(await call('/api/avatars'), 401, 'AUTH.UNAUTHENTICATED');
    expectError(await call('/api/image-formatter?url=/api/files/x&format=png'), 401, 'AUTH.UNAUTHENTICATED');
  });

  it('should store 12 selfies of every accepted kind and serve them to their owner', async () => {
    const formats = ['jpeg', 'png', 'webp', 'gif'] as const;
    const files = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const format = formats[index % formats.length]!;
        return { name: `selfie-${index}.${format}`, bytes: await selfie(format), type: `image/${format}` };
      }),
    );
    const result = await call('/api/upload-selfies', { method: 'POST', session: ada, body: form(files) });
    expect(result.status).toBe(201);
    expect(result.json.uploadedFiles).toHaveLength(12);
    expect(result.json.uploadedFiles.map((file: UploadedImage) => file.originalFilename)).toEqual(
      files.map((file) => file.name),
    );

    uploaded = await list(ada);
    expect(uploaded).toHaveLength(12);
    const image = await call(uploaded[0]!.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(image.bytes).metadata()).format).toBe('jpeg');
    const thumbnail = await call(uploaded[0]!.thumbnailUrl);
    expect(thumbnail.status).toBe(200);
    expect((await sharp(thumbnail.bytes).metadata()).format).toBe('webp');
    expect(await list(bob)).toEqual([]);
  });

  it('should refuse an upload with one bad file, name it, and keep nothing from it', async () => {
    const result = await call('/api/upload-selfies', {
      method: 'POST',
      session: ada,
      body: form([
        { name: 'fine.jpg', bytes: await selfie('jpeg') },
        { name: 'notes.png', bytes: Buffer.from('these are my notes, not a picture'), type: 'image/png' },
      ]),
    });
    expectError(result, 400, 'MEDIA.INVALID_IMAGE', /"notes\.png"/);
    expect(await list(ada)).toHaveLength(12);
  });

  it('should refuse a 6 MB file with a clear 413 and keep nothing', async () => {
    const big = Buffer.concat([await selfie('jpeg'), randomBytes(6 * 1024 * 1024)]);
    const result = await call('/api/upload-selfies', {
      method: 'POST',
      session: ada,
      body: form([{ name: 'huge.jpg', bytes: big }]),
    });
    expectError(result, 413, 'MEDIA.FILE_TOO_LARGE', /"huge\.jpg" is larger than 5 MB/);
    expect(await list(ada)).toHaveLength(12);
  });

  it('should refuse a body larger than 20 files of 5 MB from its declared length', async () => {
    const result = await callDeclaringBody(stack.url, '/api/upload-selfies', 150 * 1024 * 1024, {
      cookie: ada.cookie,
      'content-type': 'multipart/form-data; boundary=x',
    });
    expectError(result, 413, 'COMMON.PAYLOAD_TOO_LARGE');
  });

  it('should answer 400 to a form that ends without its closing boundary, and media should stay up', async () => {
    const body = Buffer.concat([
      Buffer.from('--XX\r\nContent-Disposition: form-data; name="selfies"; filename="a.jpg"\r\n\r\n', 'latin1'),
      Buffer.from([0xff, 0xd8, 0xff]),
    ]);
    const result = await rawUpload(ada, body);
    expectError(result, 400, 'COMMON.VALIDATION_FAILED', 'The upload could not be read. Please try again.');
    expect((result.json as { issues?: unknown }).issues).toEqual([
      { path: 'selfies', message: 'The upload could not be read. Please try again.' },
    ]);
    expect(await list(ada)).toHaveLength(12);

    // The media process is the one that started, still running, and still takes uploads.
    const media = stack.children.get('media')!;
    expect([media.exitCode, media.signalCode]).toEqual([null, null]);
    const next = await call('/api/upload-selfies', {
      method: 'POST',
      session: bob,
      body: form([{ name: 'after.jpg', bytes: await selfie('jpeg') }]),
    });
    expect(next.status).toBe(201);
    expect(stack.children.get('media')).toBe(media);
    await call(`/api/uploaded-images/${next.json.uploadedFiles[0].id}`, { method: 'DELETE', session: bob });
    expect(await list(bob)).toEqual([]);
  });

  it('should refuse an upload from another site', async () => {
    const result = await call('/api/upload-selfies', {
      method: 'POST',
      session: ada,
      body: form([{ name: 'a.jpg', bytes: await selfie('jpeg') }]),
      headers: { origin: 'https://evil.example' },
    });
    expectError(result, 403, 'COMMON.CSRF_REJECTED');
    expect(await list(ada)).toHaveLength(12);
  });

  it("should answer 404 for another user's selfie and change nothing", async () => {
    expectError(
      await call(`/api/uploaded-images/${uploaded[0]!.id}`, { method: 'DELETE', session: bob }),
      404,
      'COMMON.NOT_FOUND',
    );
    const formatted = await call(`/api/image-formatter?url=${encodeURIComponent(uploaded[0]!.imageUrl)}&format=png`, {
      session: bob,
    });
    expectError(formatted, 404, 'COMMON.NOT_FOUND');
    expect(await list(ada)).toHaveLength(12);
    expectError(
      await call('/api/uploaded-images/not-a-number', { method: 'DELETE', session: ada }),
      400,
      'COMMON.VALIDATION_FAILED',
    );
  });

  it('should delete a selfie with its image', async () => {
    const [victim] = uploaded;
    expect((await call(`/api/uploaded-images/${victim!.id}`, { method: 'DELETE', session: ada })).json).toEqual({
      deleted: true,
    });
    expect((await list(ada)).map((image) => image.id)).not.toContain(victim!.id);
    expect((await call(victim!.imageUrl)).status).toBe(404);
    expectError(
      await call(`/api/uploaded-images/${victim!.id}`, { method: 'DELETE', session: ada }),
      404,
      'COMMON.NOT_FOUND',
    );
  });

  describe('avatars', () => {
    let avatar: Avatar;

    beforeAll(async () => {
      // What a generation worker does: stage the bytes in storage, then ask media to keep them.
      const storage = new LocalObjectStorage(join(stack.env['DATA_DIR']!, 'objects'));
      const stagingKey = `staging/system-test/${randomBytes(8).toString('hex')}.png`;
      await storage.put(stagingKey, await selfie('png', 1024), { contentType: 'image/png' });
      const client = await createTestRpcClient(stack.env['NATS_URL']!, stack.env['NATS_NAMESPACE']!);
      try {
        const adaId = ((await call('/api/user', { session: ada })).json as { id: number }).id;
        avatar = await client.rpc.call(MediaRpc.storeAvatar, {
          userId: adaId,
          promptText: 'ada_trigger as an astronaut, studio lighting',
          customModelId: null,
          stagingKey,
          sourceRef: 'system-test:0',
        });
      } finally {
        await client.close();
      }
    });

    it('should list the avatar to its owner only', async () => {
      const mine = (await call('/api/avatars', { session: ada })).json as AvatarsPage;
      expect(mine.items.map((item) => item.id)).toEqual([avatar.id]);
      expect(mine.items[0]).toMatchObject({
        promptText: 'ada_trigger as an astronaut, studio lighting',
        favourite: false,
      });
      expect((await call('/api/avatars', { session: bob })).json).toEqual({ items: [], nextCursor: null, total: 0 });
    });

    it.each(['png', 'jpeg', 'webp'] as const)('should download the avatar as %s', async (format) => {
      const result = await call(`/api/image-formatter?url=${encodeURIComponent(avatar.imageUrl)}&format=${format}`, {
        session: ada,
      });
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toBe(`image/${format}`);
      expect(result.headers.get('content-disposition')).toBe(
        `attachment; filename="likeness-avatar-${avatar.id}.${format}"`,
      );
      expect((await sharp(result.bytes).metadata()).format).toBe(format);
    });

    it('should never fetch an address that is not one of the caller’s images', async () => {
      for (const url of ['http://127.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
        const result = await call(`/api/image-formatter?url=${encodeURIComponent(url)}&format=png`, { session: ada });
        expectError(result, 400, 'MEDIA.UNSUPPORTED_URL');
      }
      expectError(
        await call(`/api/image-formatter?url=${encodeURIComponent(avatar.imageUrl)}&format=bmp`, { session: ada }),
        400,
        'COMMON.VALIDATION_FAILED',
        'The format must be png, jpeg or webp.',
      );
    });

    it('should share the avatar by link until its owner deletes it', async () => {
      const shared = await call(avatar.shareUrl);
      expect(shared.status).toBe(200);
      expect(shared.headers.get('content-type')).toMatch(/^image\//);

      expectError(await call(`/api/avatars/${avatar.id}`, { method: 'DELETE', session: bob }), 404, 'COMMON.NOT_FOUND');
      expect((await call(avatar.shareUrl)).status).toBe(200);

      expect((await call(`/api/avatars/${avatar.id}`, { method: 'DELETE', session: ada })).json).toEqual({
        deleted: true,
      });
      expect((await call(avatar.shareUrl)).status).toBe(404);
      expect((await call(avatar.imageUrl)).status).toBe(404);
      expect((await call('/api/avatars', { session: ada })).json).toEqual({ items: [], nextCursor: null, total: 0 });
    });
  });
});
