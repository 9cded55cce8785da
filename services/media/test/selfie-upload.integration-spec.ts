import { MediaRpc, SELFIE_LIMITS, uploadMessages } from '@likeness/contracts';
import sharp from 'sharp';
import {
  type MediaUnderTest,
  type UploadFile,
  expectError,
  expectNothingStored,
  startMedia,
  uploaded,
} from './media-harness.js';
import {
  HTML_PAYLOAD,
  animatedGif,
  containsLatitude,
  decoded,
  gif,
  gifJavaScriptPolyglot,
  jpeg,
  jpegHeaderThenNoise,
  jpegWithGpsAndOrientation,
  jpegWithHtml,
  png,
  pngClaiming,
  truncatedJpeg,
  webp,
} from './test-images.js';

/** Where the gateway sends `/api/files/...`. */
const internalPath = (publicUrl: string) => publicUrl.replace(/^\/api\/files\//, '/internal/files/');

const FORMATS = [
  { make: jpeg, extension: 'jpg', type: 'image/jpeg' },
  { make: png, extension: 'png', type: 'image/png' },
  { make: gif, extension: 'gif', type: 'image/gif' },
  { make: webp, extension: 'webp', type: 'image/webp' },
] as const;

/** `count` small valid selfies, cycling through the four accepted formats. */
async function selfies(count: number, prefix = 'selfie'): Promise<UploadFile[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const format = FORMATS[index % FORMATS.length]!;
      return {
        name: `${prefix}-${index + 1}.${format.extension}`,
        bytes: await format.make(96 + index, 72, index),
        type: format.type,
      };
    }),
  );
}

/** Each refusal names the file in its message and again as the `selfies` field's issue. */
async function expectRefusal(
  response: Response,
  status: number,
  code: Parameters<typeof expectError>[2],
  message: string,
) {
  const body = await expectError(response, status, code, message);
  expect(body.issues).toEqual([{ path: 'selfies', message }]);
}

describe('selfie uploads', () => {
  let media: MediaUnderTest;
  let nextUser = 100;
  const newUser = () => (nextUser += 1);

  beforeAll(async () => {
    media = await startMedia('uploads');
  });

  afterAll(async () => {
    await media?.close();
  });

  it('should store 12 selfies of every accepted format and list them newest first with working links', async () => {
    const userId = newUser();
    const files = await selfies(12);
    const { uploadedFiles } = await uploaded(await media.upload(userId, files));

    expect(uploadedFiles.map((file) => file.originalFilename)).toEqual(files.map((file) => file.name));
    expect(await media.selfieCount(userId)).toBe(12);
    const keys = await media.objectsOf(userId);
    expect(keys).toHaveLength(24);
    // Keys are ours, never the sender's file name.
    for (const key of keys) expect(key).toMatch(/^users\/\d+\/selfies\/[0-9a-f-]{36}\.(jpg|thumb\.webp)$/);

    const listed = await media.rpc.call(MediaRpc.listSelfies, { userId });
    expect(listed.map((image) => image.id)).toEqual(uploadedFiles.map((file) => file.id).reverse());
    for (const image of listed) {
      expect(image.inUse).toBe(false);
      const full = await media.internal(internalPath(image.imageUrl));
      expect(full.status).toBe(200);
      expect(full.headers.get('content-type')).toBe('image/jpeg');
      expect(full.headers.get('x-content-type-options')).toBe('nosniff');
      expect(full.headers.get('content-disposition')).toBe('inline');
      expect(full.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      const { bytes, metadata } = await decoded(full);
      expect(Number(full.headers.get('content-length'))).toBe(bytes.length);
      expect(metadata.format).toBe('jpeg');
      await expect(sharp(bytes).stats()).resolves.toBeDefined();

      const thumbnail = await media.internal(internalPath(image.thumbnailUrl));
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      const thumb = await decoded(thumbnail);
      expect(thumb.metadata.format).toBe('webp');
      expect(Math.max(thumb.metadata.width, thumb.metadata.height)).toBeLessThanOrEqual(512);
    }
  });

  it('should refuse a text file renamed .png, naming it', async () => {
    const userId = newUser();
    const response = await media.upload(userId, [
      { name: 'notes.png', bytes: Buffer.from('Shopping list: eggs, milk\n'), type: 'image/png' },
    ]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.notAnImage('notes.png'));
    await expectNothingStored(media, userId);
  });

  it('should refuse a truncated JPEG as unreadable', async () => {
    const userId = newUser();
    const response = await media.upload(userId, [{ name: 'cut-off.jpg', bytes: await truncatedJpeg() }]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.unreadable('cut-off.jpg'));
    await expectNothingStored(media, userId);
  });

  it('should refuse a GIF header followed by JavaScript', async () => {
    const userId = newUser();
    const response = await media.upload(userId, [
      { name: 'polyglot.gif', bytes: gifJavaScriptPolyglot(), type: 'image/gif' },
    ]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.unreadable('polyglot.gif'));
    await expectNothingStored(media, userId);
  });

  it('should accept a JPEG with HTML appended, and keep only the re-encoded pixels', async () => {
    const userId = newUser();
    const sent = await jpegWithHtml();
    expect(sent.includes(HTML_PAYLOAD)).toBe(true);
    const { uploadedFiles } = await uploaded(await media.upload(userId, [{ name: 'appended.jpg', bytes: sent }]));
    const stored = await decoded(await media.internal(internalPath(uploadedFiles[0]!.imageUrl)));
    expect(stored.metadata.format).toBe('jpeg');
    expect(stored.bytes.includes('<script>')).toBe(false);
    expect(stored.bytes.equals(sent.subarray(0, stored.bytes.length))).toBe(false);
  });

  it('should refuse a file over 5 MB with 413, naming it', async () => {
    const userId = newUser();
    const response = await media.upload(userId, [{ name: 'huge.jpg', bytes: jpegHeaderThenNoise(6 * 1024 * 1024) }]);
    await expectRefusal(response, 413, 'MEDIA.FILE_TOO_LARGE', uploadMessages.tooLarge('huge.jpg'));
    await expectNothingStored(media, userId);
  });

  it('should refuse a PNG claiming 20,000 × 20,000 pixels from its header, without decoding it', async () => {
    const userId = newUser();
    const bomb = pngClaiming(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2_000);
    const started = performance.now();
    const response = await media.upload(userId, [{ name: 'bomb.png', bytes: bomb, type: 'image/png' }]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.tooManyPixels('bomb.png'));
    // Decoding would allocate 1.2 GB and take seconds; reading the header takes milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
    await expectNothingStored(media, userId);
  });

  it('should refuse 21 files at once', async () => {
    const userId = newUser();
    const response = await media.upload(userId, await selfies(21));
    await expectRefusal(response, 400, 'MEDIA.TOO_MANY_FILES', uploadMessages.tooManyAtOnce);
    await expectNothingStored(media, userId);
  });

  it('should refuse a 31st selfie, and more files than the slots left', async () => {
    const userId = newUser();
    await uploaded(await media.upload(userId, await selfies(20, 'first')));
    await uploaded(await media.upload(userId, await selfies(5, 'second')));
    const before = await media.objectsOf(userId);
    expect(before).toHaveLength(50);

    const tooMany = await media.upload(userId, await selfies(10, 'third'));
    await expectRefusal(tooMany, 400, 'MEDIA.TOO_MANY_FILES', uploadMessages.remaining(5));
    expect(await media.selfieCount(userId)).toBe(25);
    expect((await media.objectsOf(userId)).sort()).toEqual(before.sort());

    await uploaded(await media.upload(userId, await selfies(5, 'last')));
    expect(await media.selfieCount(userId)).toBe(SELFIE_LIMITS.maxStored);
    const full = await media.objectsOf(userId);

    const oneMore = await media.upload(userId, await selfies(1, 'extra'));
    await expectRefusal(oneMore, 409, 'MEDIA.UPLOAD_LIMIT_REACHED', uploadMessages.limitReached);
    expect(await media.selfieCount(userId)).toBe(SELFIE_LIMITS.maxStored);
    expect((await media.objectsOf(userId)).sort()).toEqual(full.sort());
  });

  it('should store nothing when one file among good ones is bad', async () => {
    const userId = newUser();
    const good = await selfies(6, 'good');
    const files = [...good.slice(0, 3), { name: 'broken.jpg', bytes: await truncatedJpeg() }, ...good.slice(3)];
    const response = await media.upload(userId, files);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.unreadable('broken.jpg'));
    await expectNothingStored(media, userId);
  });

  it('should read the rest of a failed upload before answering, so the sender gets the answer', async () => {
    const userId = newUser();
    const rest = Array.from({ length: 12 }, (_, index) => ({
      name: `big-${index}.jpg`,
      bytes: jpegHeaderThenNoise(4 * 1024 * 1024),
    }));
    const response = await media.upload(userId, [{ name: 'first.txt', bytes: Buffer.from('not an image') }, ...rest]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.notAnImage('first.txt'));
    await expectNothingStored(media, userId);
  });

  it('should stop reading an upload past 20 × 5 MB, store nothing, and close the connection', async () => {
    const userId = newUser();
    const files = Array.from({ length: 22 }, (_, index) => ({
      name: `huge-${index}.jpg`,
      bytes: jpegHeaderThenNoise(5 * 1024 * 1024 - 100),
    }));
    // The gateway refuses such a body before media sees it; media's cap is the backstop. The
    // sender either reads the 413 or, still writing when the connection closes, fails to send.
    const outcome = await media.upload(userId, files).catch((error: Error) => error);
    if (outcome instanceof Response) {
      await expectError(outcome, 413, 'COMMON.PAYLOAD_TOO_LARGE');
      expect(outcome.headers.get('connection')).toBe('close');
    } else {
      expect((outcome.cause as NodeJS.ErrnoException).code).toMatch(/^(EPIPE|ECONNRESET)$/);
    }
    await expectNothingStored(media, userId);
    await uploaded(await media.upload(userId, await selfies(1)));
  });

  it('should keep the limit when two uploads race for the last slots', async () => {
    const userId = newUser();
    const [first, second] = await Promise.all([
      media.upload(userId, await selfies(20, 'a')),
      media.upload(userId, await selfies(20, 'b')),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([201, 400]);
    const refused = first.status === 400 ? first : second;
    await expectRefusal(refused, 400, 'MEDIA.TOO_MANY_FILES', uploadMessages.remaining(10));
    expect(await media.selfieCount(userId)).toBe(20);
    expect(await media.objectsOf(userId)).toHaveLength(40);
  });

  it('should strip EXIF and GPS and apply the orientation', async () => {
    const userId = newUser();
    const sent = await jpegWithGpsAndOrientation(400, 200);
    const before = await sharp(sent).metadata();
    expect(before.orientation).toBe(6);
    expect(containsLatitude(before.exif!)).toBe(true);

    const { uploadedFiles } = await uploaded(await media.upload(userId, [{ name: 'holiday.jpg', bytes: sent }]));
    const stored = await decoded(await media.internal(internalPath(uploadedFiles[0]!.imageUrl)));
    expect(stored.metadata.exif).toBeUndefined();
    expect(stored.metadata.orientation).toBeUndefined();
    expect([stored.metadata.width, stored.metadata.height]).toEqual([200, 400]);
    expect(stored.bytes.includes('LeakyCam')).toBe(false);
    const thumbnail = await decoded(await media.internal(internalPath(uploadedFiles[0]!.thumbnailUrl)));
    expect(thumbnail.metadata.exif).toBeUndefined();
    expect(thumbnail.metadata.height).toBeGreaterThan(thumbnail.metadata.width);
  });

  it('should keep the first frame of an animated GIF', async () => {
    const userId = newUser();
    const { uploadedFiles } = await uploaded(
      await media.upload(userId, [{ name: 'blink.gif', bytes: await animatedGif(), type: 'image/gif' }]),
    );
    const stored = await decoded(await media.internal(internalPath(uploadedFiles[0]!.imageUrl)));
    expect([stored.metadata.width, stored.metadata.height, stored.metadata.pages]).toEqual([64, 48, undefined]);
    const { channels } = await sharp(stored.bytes).stats();
    expect(channels[0]!.mean).toBeGreaterThan(200);
    expect(channels[2]!.mean).toBeLessThan(50);
  });

  it('should sanitise the file name it keeps and shows', async () => {
    const userId = newUser();
    const { uploadedFiles } = await uploaded(
      await media.upload(userId, [{ name: 'summer\u202egpj.exe', bytes: await jpeg(64, 64) }]),
    );
    expect(uploadedFiles[0]!.originalFilename).toBe('summergpj.exe');
  });

  it('should refuse an upload with no files, files in another field, or no multipart body', async () => {
    const userId = newUser();
    await expectRefusal(await media.upload(userId, []), 400, 'COMMON.VALIDATION_FAILED', uploadMessages.noFiles);
    await expectRefusal(
      await media.upload(userId, [{ name: 'a.jpg', bytes: await jpeg(64, 64), field: 'avatar' }]),
      400,
      'COMMON.VALIDATION_FAILED',
      'Send images in the "selfies" field.',
    );
    await expectRefusal(
      await media.internal('/internal/selfies', {
        method: 'POST',
        userId,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ selfies: ['a.jpg'] }),
      }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Send the selfies as multipart/form-data.',
    );
    await expectNothingStored(media, userId);
  });

  it('should refuse an upload that is not from a Likeness service, or names no user', async () => {
    const userId = newUser();
    const form = new FormData();
    form.append('selfies', new Blob([new Uint8Array(await jpeg(64, 64))], { type: 'image/jpeg' }), 'a.jpg');
    for (const token of [undefined, 'not-the-token']) {
      const response = await fetch(`${media.url}/internal/selfies`, {
        method: 'POST',
        body: form,
        headers: { 'x-likeness-user-id': String(userId), ...(token ? { 'x-likeness-internal': token } : {}) },
      });
      await expectError(response, 401, 'AUTH.UNAUTHENTICATED');
    }
    await expectError(
      await media.internal('/internal/selfies', { method: 'POST', body: form }),
      401,
      'AUTH.UNAUTHENTICATED',
    );
    await expectNothingStored(media, userId);
  });
});
