import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalObjectStorage, ObjectNotFoundError } from '../src/index.js';
import { describeObjectStorage, readAll } from './describe-object-storage.js';

describeObjectStorage(LocalObjectStorage.name, async () => {
  const root = await mkdtemp(join(tmpdir(), 'likeness-objects-'));
  return {
    storage: new LocalObjectStorage(root),
    discardsFailedUploads: true,
    stop: () => rm(root, { recursive: true, force: true }),
  };
});

describe(`${LocalObjectStorage.name} on the file system`, () => {
  let root: string;
  let sut: LocalObjectStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'likeness-objects-'));
    sut = new LocalObjectStorage(root);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('should leave no partial or temporary file when a stream errors midway', async () => {
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(64 * 1024);
        throw new Error('the upload broke off');
      })(),
    );

    await expect(sut.put('users/1/photo.png', failing, { contentType: 'image/png' })).rejects.toThrow(
      'the upload broke off',
    );

    expect(await sut.head('users/1/photo.png')).toBeUndefined();
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    // The object's folder is made only when an object is ready to move in.
    expect(await readdir(root)).toEqual(['.tmp']);
  });

  it('should keep the previous object when a replacement stream errors midway', async () => {
    await sut.put('doc', Buffer.from('version 1'), { contentType: 'text/plain' });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('version 2, half of it');
        throw new Error('the upload broke off');
      })(),
    );

    await expect(sut.put('doc', failing, { contentType: 'text/html' })).rejects.toThrow('the upload broke off');

    const stored = await sut.get('doc');
    expect(stored.contentType).toBe('text/plain');
    expect((await readAll(stored.body)).toString()).toBe('version 1');
  });

  it('should list a key whose last segment starts with a dot', async () => {
    await sut.put('users/1/.profile', Buffer.from('x'), { contentType: 'text/plain' });

    const keys: string[] = [];
    for await (const info of sut.list('users/')) keys.push(info.key);

    expect(keys).toEqual(['users/1/.profile']);
  });

  it('should find nothing where a delete has removed the content type but not yet the data', async () => {
    await sut.put('users/1/avatars/a.webp', Buffer.from('image'), { contentType: 'image/webp' });
    await rm(join(root, 'users/1/avatars/a.webp.meta.json'));

    await expect(sut.get('users/1/avatars/a.webp')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await sut.head('users/1/avatars/a.webp')).toBeUndefined();
    const keys: string[] = [];
    for await (const info of sut.list('users/')) keys.push(info.key);
    expect(keys).toEqual([]);
  });

  it('should keep serving the bytes it opened when the object is deleted during a read', async () => {
    await sut.put('a.bin', Buffer.from('still here'), { contentType: 'application/octet-stream' });

    const stored = await sut.get('a.bin');
    await sut.delete('a.bin');

    expect((await readAll(stored.body)).toString()).toBe('still here');
  });

  it('should find nothing under a key that runs through an object or names a folder', async () => {
    await sut.put('a', Buffer.from('file'), { contentType: 'text/plain' });
    await sut.put('folder/b', Buffer.from('file'), { contentType: 'text/plain' });

    expect(await sut.head('a/b')).toBeUndefined();
    await expect(sut.get('a/b')).rejects.toThrow('No object is stored under a/b');
    expect(await sut.head('folder')).toBeUndefined();
    await expect(sut.get('folder')).rejects.toThrow('No object is stored under folder');
    await expect(sut.delete('folder')).resolves.toBeUndefined();
    expect(await sut.head('folder/b')).toBeDefined();
  });

  it('should refuse a key that would collide with the content-type files', async () => {
    await expect(sut.put('a.meta.json', Buffer.from('{}'), { contentType: 'application/json' })).rejects.toThrow(
      /Invalid object key/,
    );
  });

  it('should give no presigned URL', async () => {
    await sut.put('a', Buffer.from('x'), { contentType: 'text/plain' });

    expect(await sut.presignGet()).toBeUndefined();
  });
});
