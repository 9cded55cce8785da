import { type IncomingMessage, request as httpRequest } from 'node:http';
import type { Avatar, AvatarsPage } from '@likeness/contracts';
import type { LocalObjectStorage } from '@likeness/storage';
import { waitFor } from '@likeness/testing';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { type Session, apiClient } from './api-client.js';
import { type SeededAvatar, noisyPhoto, seedAvatars, stackStorage } from './seed-avatars.js';
import { type RunningStack, expectError, queryDatabase, startTestStack } from './stack-harness.js';

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;
let storage: LocalObjectStorage;

interface Person {
  session: Session;
  userId: number;
}

const page = async (person: Person, query: string) => {
  const result = await api.call(`/api/avatars?${query}`, { session: person.session });
  expect(result.status).toBe(200);
  return result.json as AvatarsPage;
};

async function everyPage(person: Person, query: string): Promise<{ ids: number[]; pages: number; total: number }> {
  const ids: number[] = [];
  let next = await page(person, query);
  let pages = 1;
  ids.push(...next.items.map((avatar) => avatar.id));
  while (next.nextCursor) {
    next = await page(person, `${query}&cursor=${next.nextCursor}`);
    ids.push(...next.items.map((avatar) => avatar.id));
    pages += 1;
  }
  return { ids, pages, total: next.total };
}

const stored = async (key: string) => (await storage.head(key)) !== undefined;

/** GET through node:http, so a test can read part of the answer and then hang up. */
function openStream(path: string, session: Session): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${stack.url}${path}`, { headers: { cookie: session.cookie } });
    outgoing.on('response', resolve);
    outgoing.on('error', reject);
    outgoing.end();
  });
}

interface ZipFile {
  name: string;
  bytes: Buffer;
}

function unzip(zip: Buffer): Promise<ZipFile[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error);
      const files: ZipFile[] = [];
      archive.on('error', reject);
      archive.on('end', () => resolve(files));
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('error', reject);
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

describe('the gallery for many avatars', () => {
  let ada: Person;
  let bob: Person;
  let adas: SeededAvatar[];
  let bobs: SeededAvatar[];

  const person = async (username: string): Promise<Person> => {
    const session = await api.register(username);
    const { id } = (await api.call('/api/user', { session })).json as { id: number };
    return { session, userId: id };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    api = apiClient(stack.url);
    storage = stackStorage(stack);
    [ada, bob] = await Promise.all([person('ada_gallery'), person('bob_gallery')]);
    const image = await noisyPhoto();
    adas = await seedAvatars(stack, ada.userId, 250, image);
    bobs = await seedAvatars(stack, bob.userId, 30, image);
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it("should page through all of a person's avatars once each, newest first, and never another's", async () => {
    const first = await page(ada, 'limit=100');
    expect(first.items).toHaveLength(100);
    expect(first.total).toBe(250);

    const { ids, pages, total } = await everyPage(ada, 'limit=100');
    expect(pages).toBe(3);
    expect(total).toBe(250);
    expect(new Set(ids).size).toBe(250);
    expect([...ids].sort((a, b) => a - b)).toEqual(adas.map((avatar) => avatar.id).sort((a, b) => a - b));
    expect(ids.some((id) => bobs.some((avatar) => avatar.id === id))).toBe(false);

    // Newest first, undated last, ties broken the same way on every page (by smaller pages too).
    const expected = await queryDatabase<{ id: number }>(
      stack.databaseUrl,
      `SELECT id FROM media.avatars WHERE user_id = $1 ORDER BY created_at DESC NULLS LAST, id DESC`,
      [ada.userId],
    );
    expect(ids).toEqual(expected.map((row) => row.id));
    expect((await everyPage(ada, 'limit=7')).ids).toEqual(ids);
    expect((await page(ada, '')).items).toHaveLength(24);
  });

  it('should refuse a page size past the cap and a cursor it did not write, in words', async () => {
    expectError(
      await api.call('/api/avatars?limit=101', { session: ada.session }),
      400,
      'COMMON.VALIDATION_FAILED',
      'limit must be a whole number from 1 to 100',
    );
    const { nextCursor } = await page(ada, 'limit=10');
    for (const cursor of [
      'bm90LWEtY3Vyc29y',
      Buffer.from('["2026-01-01T00:00:00.000Z",1,false]x').toString('base64url'),
    ]) {
      expectError(
        await api.call(`/api/avatars?cursor=${cursor}`, { session: ada.session }),
        400,
        'COMMON.VALIDATION_FAILED',
        'That page link is not valid any more. Start again from the first page.',
      );
    }
    // A cursor of the whole list is not one of the favourites.
    expect((await api.call(`/api/avatars?favourites=true&cursor=${nextCursor}`, { session: ada.session })).status).toBe(
      400,
    );
  });

  it('should star and unstar an avatar, list the starred ones alone, and not let another person star it', async () => {
    const chosen = adas.slice(10, 13);
    for (const avatar of chosen) {
      const starred = await api.call(`/api/avatars/${avatar.id}/favourite`, {
        method: 'PUT',
        session: ada.session,
        body: { favourite: true },
      });
      expect(starred.status).toBe(200);
      expect(starred.json).toMatchObject({ id: avatar.id, favourite: true });
    }
    expectError(
      await api.call(`/api/avatars/${adas[20]!.id}/favourite`, {
        method: 'PUT',
        session: bob.session,
        body: { favourite: true },
      }),
      404,
      'COMMON.NOT_FOUND',
    );
    expectError(
      await api.call(`/api/avatars/${adas[20]!.id}/favourite`, { method: 'PUT', session: ada.session, body: {} }),
      400,
      'COMMON.VALIDATION_FAILED',
    );

    const favourites = await everyPage(ada, 'favourites=true&limit=2');
    expect([...favourites.ids].sort()).toEqual(chosen.map((avatar) => avatar.id).sort());
    expect(favourites.total).toBe(3);
    expect((await page(bob, 'favourites=true')).items).toEqual([]);

    await api.call(`/api/avatars/${chosen[0]!.id}/favourite`, {
      method: 'PUT',
      session: ada.session,
      body: { favourite: false },
    });
    expect((await page(ada, 'favourites=true')).items.map((avatar: Avatar) => avatar.id).sort()).toEqual(
      chosen
        .slice(1)
        .map((avatar) => avatar.id)
        .sort(),
    );
  });

  it("should delete exactly the chosen avatars in one call, their objects too, and never another person's", async () => {
    const chosen = adas.slice(200, 205);
    const others = bobs.slice(0, 2);
    const deleted = await api.call('/api/avatars/bulk-delete', {
      method: 'POST',
      session: ada.session,
      body: { ids: [...chosen, ...others].map((avatar) => avatar.id) },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: 5 });

    const left = await everyPage(ada, 'limit=100');
    expect(left.total).toBe(245);
    expect(new Set(left.ids)).toEqual(
      new Set(adas.filter((avatar) => !chosen.includes(avatar)).map((avatar) => avatar.id)),
    );
    for (const avatar of chosen) {
      expect(await stored(avatar.storage_key)).toBe(false);
      expect(await stored(avatar.thumbnail_key)).toBe(false);
    }
    expect((await page(bob, 'limit=100')).total).toBe(30);
    for (const avatar of others) expect(await stored(avatar.storage_key)).toBe(true);
    adas = adas.filter((avatar) => !chosen.includes(avatar));
  });

  it('should refuse a bulk delete of no avatars or of more than 200', async () => {
    for (const ids of [[], Array.from({ length: 201 }, (_, index) => index + 1)]) {
      expectError(
        await api.call('/api/avatars/bulk-delete', { method: 'POST', session: ada.session, body: { ids } }),
        400,
        'COMMON.VALIDATION_FAILED',
        'Choose from 1 to 200 avatars.',
      );
    }
  });

  it('should stream a ZIP of 50 chosen avatars in the chosen format, each with its prompt beside it', async () => {
    const chosen = adas.slice(0, 50);
    const ids = [...chosen, bobs[5]!].map((avatar) => avatar.id).join(',');
    const result = await api.call(`/api/avatars/zip?format=webp&ids=${ids}`, { session: ada.session });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/zip');
    expect(result.headers.get('content-disposition')).toBe('attachment; filename="likeness-avatars-50.zip"');

    const files = await unzip(result.bytes);
    const images = files.filter((file) => file.name.endsWith('.webp'));
    const prompts = files.filter((file) => file.name.endsWith('.txt'));
    expect(files).toHaveLength(100);
    expect(images.map((file) => file.name).sort()).toEqual(
      chosen.map((avatar) => `likeness-avatar-${avatar.id}.webp`).sort(),
    );
    for (const image of images) {
      expect(await sharp(image.bytes).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 });
    }
    for (const avatar of chosen) {
      expect(prompts.find((file) => file.name === `likeness-avatar-${avatar.id}.txt`)?.bytes.toString('utf8')).toBe(
        `${avatar.prompt_text}\n`,
      );
    }
  });

  it('should answer a ZIP of none of the caller’s avatars with 404, and bad ids in words', async () => {
    expectError(
      await api.call(`/api/avatars/zip?format=png&ids=${bobs[0]!.id}`, { session: ada.session }),
      404,
      'COMMON.NOT_FOUND',
      'None of those avatars were found.',
    );
    expectError(
      await api.call('/api/avatars/zip?format=png&ids=1,,2', { session: ada.session }),
      400,
      'COMMON.VALIDATION_FAILED',
      'ids must be avatar ids separated by commas',
    );
    expectError(
      await api.call('/api/avatars/zip?format=gif', { session: ada.session }),
      400,
      'COMMON.VALIDATION_FAILED',
      'The format must be png, jpeg or webp.',
    );
  });

  it('should allow one ZIP at a time per person, and stay healthy when the client hangs up mid-way', async () => {
    const running = await openStream('/api/avatars/zip?format=png', ada.session);
    expect(running.statusCode).toBe(200);
    running.pause();
    // While ada's first ZIP runs she cannot start another; bob can.
    expectError(await api.call('/api/avatars/zip?format=png', { session: ada.session }), 429, 'COMMON.RATE_LIMITED');
    const bobsIds = (await page(bob, 'limit=3')).items.map((avatar) => avatar.id).join(',');
    const bobsZip = await api.call(`/api/avatars/zip?format=jpeg&ids=${bobsIds}`, { session: bob.session });
    expect(bobsZip.status).toBe(200);
    expect(await unzip(bobsZip.bytes)).toHaveLength(6);

    running.destroy();
    // Hanging up ends the ZIP on media's side: ada may start another, and it completes.
    await waitFor(
      async () =>
        (await api.call(`/api/avatars/zip?format=jpeg&ids=${adas[0]!.id}`, { session: ada.session })).status === 200,
      { what: "ada's abandoned ZIP released" },
    );
    const again = await api.call(`/api/avatars/zip?format=jpeg&ids=${adas[0]!.id},${adas[1]!.id}`, {
      session: ada.session,
    });
    const files = await unzip(again.bytes);
    expect(files.map((file) => file.name).sort()).toEqual(
      [adas[0]!, adas[1]!]
        .flatMap((avatar) => [`likeness-avatar-${avatar.id}.jpeg`, `likeness-avatar-${avatar.id}.txt`])
        .sort(),
    );
    expect(stack.crashReport()).toBeUndefined();
  });
});
