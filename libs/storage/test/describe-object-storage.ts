import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type ListedObject, ObjectNotFoundError, type ObjectStorage } from '../src/index.js';

export interface ObjectStorageUnderTest {
  storage: ObjectStorage;
  /**
   * Whether a put that fails midway leaves nothing under its key. True of the file adapter,
   * S3 and MinIO; s3rver keeps the bytes it received before the request broke off.
   */
  discardsFailedUploads: boolean;
  stop?(): Promise<void>;
}

/**
 * What every adapter of the storage port must do, so the file adapter and the S3 adapter are
 * held to one behaviour. Each test works under a prefix of its own.
 */
export function describeObjectStorage(name: string, setup: () => Promise<ObjectStorageUnderTest>): void {
  describe(name, () => {
    let target: ObjectStorageUnderTest;
    let sut: ObjectStorage;
    let prefix: string;

    beforeAll(async () => {
      target = await setup();
      sut = target.storage;
    });

    afterAll(async () => {
      await target?.stop?.();
    });

    beforeEach(() => {
      prefix = `t${randomUUID()}/`;
    });

    it('should return the bytes, size and content type that were put when the body is a Buffer', async () => {
      const key = `${prefix}photo.webp`;
      const bytes = randomBytes(1234);

      await sut.put(key, bytes, { contentType: 'image/webp' });
      const stored = await sut.get(key);

      expect({ key: stored.key, size: stored.size, contentType: stored.contentType }).toEqual({
        key,
        size: 1234,
        contentType: 'image/webp',
      });
      expect((await readAll(stored.body)).equals(bytes)).toBe(true);
    });

    it('should round-trip a streamed 5 MB random file byte for byte', async () => {
      const key = `${prefix}upload.bin`;
      const bytes = randomBytes(5 * 1024 * 1024);

      await sut.put(key, chunked(bytes, 64 * 1024), {
        contentType: 'application/octet-stream',
        contentLength: bytes.length,
      });
      const stored = await sut.get(key);

      expect(stored.size).toBe(bytes.length);
      expect(sha256(await readAll(stored.body))).toBe(sha256(bytes));
    });

    it('should replace the object when a key is put again', async () => {
      const key = `${prefix}doc`;
      await sut.put(key, Buffer.from('first'), { contentType: 'text/plain' });

      await sut.put(key, Buffer.from('second, longer'), { contentType: 'text/markdown' });

      const stored = await sut.get(key);
      expect(stored.contentType).toBe('text/markdown');
      expect((await readAll(stored.body)).toString()).toBe('second, longer');
    });

    it('should describe an object with head and answer undefined when the key holds nothing', async () => {
      const key = `${prefix}a.png`;
      await sut.put(key, Buffer.alloc(10), { contentType: 'image/png' });

      expect(await sut.head(key)).toEqual({ key, size: 10, contentType: 'image/png' });
      expect(await sut.head(`${prefix}missing.png`)).toBeUndefined();
    });

    it('should throw ObjectNotFoundError from get when the key holds nothing', async () => {
      const key = `${prefix}missing`;

      const error = await sut.get(key).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ObjectNotFoundError);
      expect((error as ObjectNotFoundError).key).toBe(key);
    });

    it('should fail the put and store nothing when a stream errors midway', async () => {
      const key = `${prefix}broken.bin`;
      const failing = Readable.from(
        (async function* () {
          yield randomBytes(100_000);
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('the upload broke off');
        })(),
      );

      await expect(sut.put(key, failing, { contentType: 'image/png', contentLength: 200_000 })).rejects.toThrow(
        'the upload broke off',
      );
      if (target.discardsFailedUploads) expect(await sut.head(key)).toBeUndefined();
    });

    it.each([
      ['shorter', 10],
      ['longer', 30],
    ])('should refuse a stream %s than its declared contentLength', async (_what, actual) => {
      const key = `${prefix}mismatch.bin`;

      await expect(
        sut.put(key, Readable.from([Buffer.alloc(actual)]), { contentType: 'image/png', contentLength: 20 }),
      ).rejects.toThrow(/contentLength of 20/);
      if (target.discardsFailedUploads) expect(await sut.head(key)).toBeUndefined();
    });

    it('should list what lies under a prefix, and nothing else, when objects share a leading path', async () => {
      await putText(sut, `${prefix}users/1/a.png`, 'a', 'image/png');
      await putText(sut, `${prefix}users/1/nested/b.jpg`, 'bb', 'image/jpeg');
      await putText(sut, `${prefix}users/10/c.png`, 'ccc', 'image/png');
      await putText(sut, `${prefix}users/2/d.png`, 'dddd', 'image/png');

      expect(await listSorted(sut, `${prefix}users/1/`)).toEqual([
        { key: `${prefix}users/1/a.png`, size: 1 },
        { key: `${prefix}users/1/nested/b.jpg`, size: 2 },
      ]);
      // A prefix is a string prefix, not a folder: users/1 also covers users/10.
      expect((await listSorted(sut, `${prefix}users/1`)).map((info) => info.key)).toEqual([
        `${prefix}users/1/a.png`,
        `${prefix}users/1/nested/b.jpg`,
        `${prefix}users/10/c.png`,
      ]);
      expect(await listSorted(sut, `${prefix}nobody/`)).toEqual([]);
    });

    it('should list every object when the listing spans several pages', async () => {
      const keys = Array.from({ length: 7 }, (_, index) => `${prefix}page/${index}`);
      await Promise.all(keys.map((key) => putText(sut, key, key)));

      expect((await listSorted(sut, `${prefix}page/`)).map((info) => info.key)).toEqual(keys);
    });

    it('should list and delete more than 1000 objects', async () => {
      const keys = Array.from({ length: 1001 }, (_, index) => `${prefix}many/${String(index).padStart(4, '0')}`);
      for (let start = 0; start < keys.length; start += 50) {
        await Promise.all(keys.slice(start, start + 50).map((key) => putText(sut, key, 'x')));
      }

      expect((await listSorted(sut, `${prefix}many/`)).map((info) => info.key)).toEqual(keys);
      await sut.deleteMany(keys);
      expect(await listSorted(sut, `${prefix}many/`)).toEqual([]);
    });

    it('should delete an object, and do nothing when the key holds nothing', async () => {
      const key = `${prefix}gone.txt`;
      await putText(sut, key, 'bye');

      await sut.delete(key);
      await sut.delete(key);
      await sut.delete(`${prefix}never-was.txt`);

      expect(await sut.head(key)).toBeUndefined();
    });

    it('should delete the named objects only, ignoring keys that hold nothing', async () => {
      const keep = `${prefix}keep`;
      await Promise.all([putText(sut, `${prefix}x`, 'x'), putText(sut, `${prefix}y`, 'y'), putText(sut, keep, 'k')]);

      await sut.deleteMany([`${prefix}x`, `${prefix}y`, `${prefix}never-was`]);
      await sut.deleteMany([]);

      expect((await listSorted(sut, prefix)).map((info) => info.key)).toEqual([keep]);
    });

    it.each(['../x', '/abs', 'a//b', 'a/../../b', './x', ''])('should refuse the key %j', async (key) => {
      const invalid = /Invalid object key/;
      await expect(sut.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(invalid);
      await expect(sut.get(key)).rejects.toThrow(invalid);
      await expect(sut.head(key)).rejects.toThrow(invalid);
      await expect(sut.delete(key)).rejects.toThrow(invalid);
      await expect(sut.deleteMany([`${prefix}fine`, key])).rejects.toThrow(invalid);
    });

    it('should answer check when the storage is reachable', async () => {
      await expect(sut.check()).resolves.toBeUndefined();
    });
  });
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A stream of `bytes` in chunks, as an upload arrives. */
export function chunked(bytes: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
    })(),
  );
}

async function putText(storage: ObjectStorage, key: string, text: string, contentType = 'text/plain'): Promise<void> {
  await storage.put(key, Buffer.from(text), { contentType });
}

async function listSorted(storage: ObjectStorage, prefix: string): Promise<ListedObject[]> {
  const found: ListedObject[] = [];
  for await (const info of storage.list(prefix)) found.push(info);
  return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
