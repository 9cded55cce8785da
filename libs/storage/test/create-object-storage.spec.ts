import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalObjectStorage,
  type ObjectStorage,
  S3ObjectStorage,
  assertValidKey,
  createObjectStorage,
} from '../src/index.js';

describe(createObjectStorage.name, () => {
  let dataDir: string;
  const created: ObjectStorage[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'likeness-data-'));
  });

  afterEach(async () => {
    for (const storage of created.splice(0)) if (storage instanceof S3ObjectStorage) storage.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  const create = (settings: Parameters<typeof createObjectStorage>[0]) => {
    const storage = createObjectStorage(settings);
    created.push(storage);
    return storage;
  };

  it('should keep files under <dataDir>/objects when auto has no bucket', async () => {
    const sut = create({ driver: 'auto', dataDir, s3: { endpoint: 'http://127.0.0.1:9' } });

    await sut.put('users/1/a.txt', Buffer.from('hello'), { contentType: 'text/plain' });

    expect(sut).toBeInstanceOf(LocalObjectStorage);
    expect(await readFile(join(dataDir, 'objects', 'users', '1', 'a.txt'), 'utf8')).toBe('hello');
  });

  it('should use S3 when auto has a bucket', () => {
    expect(create({ driver: 'auto', dataDir, s3: { bucket: 'media' } })).toBeInstanceOf(S3ObjectStorage);
  });

  it('should use files when local is asked for, even with a bucket', () => {
    expect(create({ driver: 'local', dataDir, s3: { bucket: 'media' } })).toBeInstanceOf(LocalObjectStorage);
  });

  it('should refuse the s3 driver without a bucket', () => {
    expect(() => create({ driver: 's3', dataDir })).toThrow(/needs a bucket/);
  });
});

describe(assertValidKey.name, () => {
  it.each(['users/1/photo.png', 'a', 'a/b.c/d-e_f', '0/.hidden'])('should accept %j', (key) => {
    expect(() => assertValidKey(key)).not.toThrow();
  });

  it.each(['../x', '/abs', 'a//b', 'a/', 'a/./b', 'a/../b', '', '.x', 'a b', 'a\\b', 'x'.repeat(1025)])(
    'should refuse %j',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(/Invalid object key/);
    },
  );
});
