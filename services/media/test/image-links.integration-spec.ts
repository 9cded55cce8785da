import { type Avatar, MediaRpc, type UploadedImage } from '@likeness/contracts';
import { UrlSigner } from '../src/files/url-signer.js';
import { type MediaUnderTest, expectError, internalPath, startMedia, storeAvatar, uploaded } from './media-harness.js';
import { decoded, jpeg } from './test-images.js';

const MAGIC = {
  png: [0x89, 0x50, 0x4e, 0x47],
  jpeg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46],
} as const;

describe('image links', () => {
  let media: MediaUnderTest;
  let selfie: UploadedImage;
  let avatar: Avatar;
  const OWNER = 7;
  const OTHER = 8;

  beforeAll(async () => {
    media = await startMedia('links');
    const { uploadedFiles } = await uploaded(await media.upload(OWNER, [{ name: 'me.jpg', bytes: await jpeg() }]));
    selfie = uploadedFiles[0]!;
    avatar = await storeAvatar(media, OWNER, 'job-1:0');
  });

  afterAll(async () => {
    await media?.close();
  });

  describe('signed file URLs', () => {
    it('should refuse a tampered signature as not found', async () => {
      const url = new URL(selfie.imageUrl, 'http://x.invalid');
      const signature = url.searchParams.get('signature')!;
      url.searchParams.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
      await expectError(await media.internal(internalPath(`${url.pathname}${url.search}`)), 404, 'COMMON.NOT_FOUND');

      url.searchParams.delete('signature');
      await expectError(await media.internal(internalPath(`${url.pathname}${url.search}`)), 404, 'COMMON.NOT_FOUND');
    });

    it('should refuse a URL signed for another key', async () => {
      const other = selfie.imageUrl.replace(
        /selfies\/[0-9a-f-]+\.jpg/,
        'selfies/00000000-0000-4000-8000-000000000000.jpg',
      );
      await expectError(await media.internal(internalPath(other)), 404, 'COMMON.NOT_FOUND');
    });

    it('should answer 410 for a correctly signed URL past its expiry', async () => {
      const key = new URL(selfie.imageUrl, 'http://x.invalid').pathname.slice('/api/files/'.length);
      const past = new UrlSigner(media.config.MEDIA_SECRET, 60, () => Date.now() - 3 * 3600_000).fileUrl(key);
      await expectError(await media.internal(internalPath(past)), 410, 'MEDIA.LINK_EXPIRED');
    });

    it("should stop serving a deleted selfie's URL", async () => {
      const { uploadedFiles } = await uploaded(
        await media.upload(OWNER, [{ name: 'short-lived.jpg', bytes: await jpeg(512, 512) }]),
      );
      const doomed = uploadedFiles[0]!;
      expect((await media.internal(internalPath(doomed.imageUrl))).status).toBe(200);
      await media.rpc.call(MediaRpc.deleteSelfie, { userId: OWNER, id: doomed.id });
      await expectError(await media.internal(internalPath(doomed.imageUrl)), 404, 'COMMON.NOT_FOUND');
      await expectError(await media.internal(internalPath(doomed.thumbnailUrl)), 404, 'COMMON.NOT_FOUND');
    });

    it('should serve avatar images and thumbnails by their signed URLs', async () => {
      const image = await media.internal(internalPath(avatar.imageUrl));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      expect((await decoded(image)).metadata.format).toBe('jpeg');
      expect((await media.internal(internalPath(avatar.thumbnailUrl))).status).toBe(200);
    });
  });

  describe('share links', () => {
    it('should serve a shared avatar to anyone until it is deleted', async () => {
      const shared = await storeAvatar(media, OWNER, 'job-2:0');
      expect(shared.shareUrl).toMatch(/^\/api\/shared\/avatars\/[A-Za-z0-9_-]{43}$/);
      const response = await media.internal(internalPath(shared.shareUrl));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await decoded(response)).metadata.format).toBe('jpeg');

      await media.rpc.call(MediaRpc.deleteAvatar, { userId: OWNER, id: shared.id });
      await expectError(await media.internal(internalPath(shared.shareUrl)), 404, 'COMMON.NOT_FOUND');
    });

    it('should answer not found for a token that names no avatar or is malformed', async () => {
      await expectError(await media.internal(`/internal/shared/avatars/${'A'.repeat(43)}`), 404, 'COMMON.NOT_FOUND');
      await expectError(await media.internal('/internal/shared/avatars/..%2F..%2Fetc'), 404, 'COMMON.NOT_FOUND');
    });
  });

  describe('the image formatter', () => {
    const format = (userId: number, url: string, to: string) =>
      media.internal(`/internal/format?${new URLSearchParams({ url, format: to })}`, { userId });

    it.each(['png', 'jpeg', 'webp'] as const)('should convert my avatar to %s for download', async (to) => {
      const response = await format(OWNER, avatar.imageUrl, to);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`image/${to}`);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="likeness-avatar-${avatar.id}.${to}"`,
      );
      const { bytes, metadata } = await decoded(response);
      expect([...bytes.subarray(0, MAGIC[to].length)]).toEqual([...MAGIC[to]]);
      expect(metadata.format).toBe(to);
    });

    it('should convert my selfie, and my avatar named by its share link or with any origin', async () => {
      const fromSelfie = await format(OWNER, selfie.imageUrl, 'png');
      expect(fromSelfie.headers.get('content-disposition')).toBe(
        `attachment; filename="likeness-selfie-${selfie.id}.png"`,
      );
      const fromShare = await format(OWNER, `https://likeness.example${avatar.shareUrl}`, 'webp');
      expect(fromShare.status).toBe(200);
      // Only the path counts: the host is never contacted.
      const elsewhere = await format(OWNER, `http://127.0.0.1:1${avatar.thumbnailUrl}`, 'jpeg');
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('content-disposition')).toContain(`likeness-avatar-${avatar.id}.jpeg`);
    });

    it.each([
      'http://127.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      'data:image/png;base64,iVBORw0KGgo=',
      'ftp://example.com/api/files/users/7/selfies/x.jpg',
      'https://evil.example/steal.png',
      '/api/users/1',
    ])('should refuse to fetch %s', async (url) => {
      await expectError(
        await format(OWNER, url, 'png'),
        400,
        'MEDIA.UNSUPPORTED_URL',
        'Only your own Likeness images can be converted.',
      );
    });

    it("should not convert someone else's image", async () => {
      for (const url of [avatar.imageUrl, avatar.shareUrl, selfie.imageUrl, selfie.thumbnailUrl]) {
        await expectError(await format(OTHER, url, 'png'), 404, 'COMMON.NOT_FOUND');
      }
      await expectError(await format(OWNER, '/api/files/users/7/selfies/unknown.jpg', 'png'), 404, 'COMMON.NOT_FOUND');
    });

    it('should refuse an unknown format or a missing url', async () => {
      await expectError(
        await format(OWNER, avatar.imageUrl, 'bmp'),
        400,
        'COMMON.VALIDATION_FAILED',
        'The format must be png, jpeg or webp.',
      );
      await expectError(
        await media.internal('/internal/format?format=png', { userId: OWNER }),
        400,
        'COMMON.VALIDATION_FAILED',
        'The url of one of your images is required.',
      );
    });

    it('should need a user', async () => {
      await expectError(
        await media.internal(`/internal/format?${new URLSearchParams({ url: avatar.imageUrl, format: 'png' })}`),
        401,
        'AUTH.UNAUTHENTICATED',
      );
    });
  });

  describe('the internal token', () => {
    it.each([
      ['no token', {}],
      ['a wrong token', { 'x-likeness-internal': 'guess' }],
      ['a token of another secret', { 'x-likeness-internal': 'dGhpcy1pcy1ub3QtdGhlLXRva2VuLWF0LWFsbC0xMjM0NQ' }],
    ])('should refuse a call with %s', async (_, headers: Record<string, string>) => {
      for (const path of [
        internalPath(selfie.imageUrl),
        internalPath(avatar.shareUrl),
        `/internal/format?${new URLSearchParams({ url: avatar.imageUrl, format: 'png' })}`,
        '/internal/anything',
      ]) {
        const response = await fetch(`${media.url}${path}`, { headers: { ...headers, 'x-likeness-user-id': '7' } });
        await expectError(response, 401, 'AUTH.UNAUTHENTICATED');
      }
    });
  });
});
