import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { type S3ServerHandle, startS3Server } from '@likeness/testing';
import { ObjectNotFoundError, S3ObjectStorage } from '../src/index.js';
import { describeObjectStorage } from './describe-object-storage.js';

describeObjectStorage(S3ObjectStorage.name, async () => {
  const server = await startS3Server();
  // A small page size, so listing seven objects walks three pages.
  const storage = new S3ObjectStorage({ ...server, listPageSize: 3 });
  return {
    storage,
    discardsFailedUploads: server.kind !== 's3rver',
    stop: async () => {
      storage.destroy();
      await server.stop();
    },
  };
});

describe(`${S3ObjectStorage.name} against a real S3-compatible server`, () => {
  let server: S3ServerHandle;
  let sut: S3ObjectStorage;

  beforeAll(async () => {
    server = await startS3Server();
    sut = new S3ObjectStorage(server);
    await sut.put('shared/photo.png', Buffer.from('the photo'), { contentType: 'image/png' });
    await sut.put('shared/other.png', Buffer.from('another photo'), { contentType: 'image/png' });
  });

  afterAll(async () => {
    sut?.destroy();
    await server?.stop();
  });

  describe('presignGet', () => {
    it('should give a URL that plain fetch reads the object from', async () => {
      const url = await sut.presignGet('shared/photo.png', 60);

      const response = await fetch(url);

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('the photo');
    });

    it('should give a URL that is refused once it has expired', async () => {
      const url = await sut.presignGet('shared/photo.png', 1);
      await new Promise((resolve) => setTimeout(resolve, 2_100));

      const response = await fetch(url);

      expect(response.status).toBe(403);
    });

    it('should give a URL that is refused when its credential was altered', async () => {
      const url = new URL(await sut.presignGet('shared/photo.png', 60));
      url.searchParams.set('X-Amz-Credential', url.searchParams.get('X-Amz-Credential')!.replace(/^[^/]+/, 'INTRUDER'));

      const response = await fetch(url);

      expect(response.status).toBe(403);
    });

    // s3rver does not check signatures (MinIO and S3 do), so the signature is checked here, by
    // the rules of SigV4 presigning: bound to the method, the key and the expiry.
    it('should sign the URL for this key and expiry with the secret key', async () => {
      const url = new URL(await sut.presignGet('shared/photo.png', 60));

      expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
      expect(url.searchParams.get('X-Amz-Signature')).toBe(presignedSignature(url, server.secretAccessKey));
      const otherKey = new URL(url);
      otherKey.pathname = otherKey.pathname.replace('photo.png', 'other.png');
      expect(presignedSignature(otherKey, server.secretAccessKey)).not.toBe(url.searchParams.get('X-Amz-Signature'));
    });
  });

  describe('put', () => {
    it('should refuse a stream without a contentLength before reading it', async () => {
      const body = Readable.from([Buffer.from('bytes')]);

      await expect(sut.put('shared/unsized', body, { contentType: 'text/plain' })).rejects.toThrow(
        /needs options\.contentLength/,
      );
      expect(body.readableDidRead).toBe(false);
      expect(await sut.head('shared/unsized')).toBeUndefined();
    });
  });

  describe('a missing bucket', () => {
    let missing: S3ObjectStorage;

    beforeAll(() => {
      missing = new S3ObjectStorage({ ...server, bucket: 'no-such-bucket' });
    });

    afterAll(() => missing.destroy());

    it('should fail check', async () => {
      await expect(missing.check()).rejects.toThrow();
    });

    it('should fail get with the bucket error rather than ObjectNotFoundError', async () => {
      const error = await missing.get('shared/photo.png').catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ObjectNotFoundError);
      expect((error as Error).name).toBe('NoSuchBucket');
    });
  });

  it('should refuse credentials that come without their secret', () => {
    expect(() => new S3ObjectStorage({ bucket: 'b', region: 'us-east-1', accessKeyId: 'only-the-id' })).toThrow(
      /both an access key id and a secret/,
    );
  });
});

/** The SigV4 signature a presigned GET URL must carry (AWS's query-string signing rules). */
function presignedSignature(url: URL, secretAccessKey: string): string {
  const encode = (value: string) =>
    encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...url.searchParams.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = ['GET', url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const amzDate = url.searchParams.get('X-Amz-Date')!;
  const scope = url.searchParams.get('X-Amz-Credential')!.split('/').slice(1).join('/');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signingKey = scope
    .split('/')
    .reduce<Buffer>(
      (key, part) => createHmac('sha256', key).update(part).digest(),
      Buffer.from(`AWS4${secretAccessKey}`),
    );
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}
