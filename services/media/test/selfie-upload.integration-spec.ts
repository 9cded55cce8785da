import { randomBytes } from 'node:crypto';
import { MediaRpc, SELFIE_LIMITS, uploadMessages } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
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
  blackImage,
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

/** The n-th test selfie's bytes, made once: a file's name may differ between uploads, its bytes need not. */
const madeSelfies = new Map<number, Promise<Buffer>>();
function selfieBytes(index: number): Promise<Buffer> {
  const format = FORMATS[index % FORMATS.length]!;
  if (!madeSelfies.has(index)) {
    madeSelfies.set(index, format.make(SELFIE_LIMITS.minShortSide + index, SELFIE_LIMITS.minShortSide, index));
  }
  return madeSelfies.get(index)!;
}

/** `count` valid selfies of about the smallest size accepted, cycling through the four accepted formats. */
async function selfies(count: number, prefix = 'selfie'): Promise<UploadFile[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const format = FORMATS[index % FORMATS.length]!;
      return { name: `${prefix}-${index + 1}.${format.extension}`, bytes: await selfieBytes(index), type: format.type };
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

/** A multipart part's head, boundary `XX`: what comes before a file's bytes. */
const partHead = (filename: string) =>
  Buffer.from(`--XX\r\nContent-Disposition: form-data; name="selfies"; filename="${filename}"\r\n\r\n`, 'latin1');
/** A whole part: its head, the file, and the line break before the next boundary. */
const part = (filename: string, bytes: Buffer) => Buffer.concat([partHead(filename), bytes, Buffer.from('\r\n')]);
const UNREADABLE_UPLOAD = 'The upload could not be read. Please try again.';

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
    const response = await media.upload(userId, [{ name: 'bomb.png', bytes: bomb, type: 'image/png' }]);
    // Named from the header's claim: decoding would have allocated 1.2 GB first.
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.tooManyPixels('bomb.png'));
    await expectNothingStored(media, userId);
  });

  it('should refuse a selfie under 512 px on its short side from its header, naming it', async () => {
    const userId = newUser();
    const narrow = await media.upload(userId, [{ name: 'narrow.jpg', bytes: await jpeg(1000, 511) }]);
    await expectRefusal(narrow, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.tooSmall('narrow.jpg'));
    // Its pixels are never decoded: a header alone, with no image behind it, is refused the same way.
    const headerOnly = await media.upload(userId, [
      { name: 'icon.png', bytes: pngClaiming(4000, 300), type: 'image/png' },
    ]);
    await expectRefusal(headerOnly, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.tooSmall('icon.png'));
    await expectNothingStored(media, userId);
    expect(uploadMessages.tooSmall('a.jpg')).toBe(
      '"a.jpg" is too small: selfies need at least 512 pixels on the short side so the trainer can use them.',
    );
  });

  it('should refuse a 36-megapixel black PNG of a few kilobytes by its header', async () => {
    const userId = newUser();
    const black = await blackImage(6000, 6000, 'png');
    expect(black.length).toBeLessThan(10_000);
    const response = await media.upload(userId, [{ name: 'black.png', bytes: black, type: 'image/png' }]);
    await expectRefusal(response, 400, 'MEDIA.INVALID_IMAGE', uploadMessages.tooManyPixels('black.png'));
    await expectNothingStored(media, userId);
  });

  it('should refuse the file that takes one upload past 320 megapixels, and keep none of it', async () => {
    const userId = newUser();
    // 12 at the per-file cap fit (300 MP), so the refusal names the 13th, which would make 325.
    const black = await blackImage(5000, 5000, 'jpeg');
    const files = Array.from({ length: 13 }, (_, index) => ({ name: `black-${index + 1}.jpg`, bytes: black }));
    const response = await media.upload(userId, files);
    await expectRefusal(response, 400, 'MEDIA.TOO_MANY_FILES', uploadMessages.tooManyPixelsInAll('black-13.jpg'));
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
    const sent = await jpegWithGpsAndOrientation(1024, 512);
    const before = await sharp(sent).metadata();
    expect(before.orientation).toBe(6);
    expect(containsLatitude(before.exif!)).toBe(true);

    const { uploadedFiles } = await uploaded(await media.upload(userId, [{ name: 'holiday.jpg', bytes: sent }]));
    const stored = await decoded(await media.internal(internalPath(uploadedFiles[0]!.imageUrl)));
    expect(stored.metadata.exif).toBeUndefined();
    expect(stored.metadata.orientation).toBeUndefined();
    expect([stored.metadata.width, stored.metadata.height]).toEqual([512, 1024]);
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
    expect([stored.metadata.width, stored.metadata.height, stored.metadata.pages]).toEqual([640, 512, undefined]);
    const { channels } = await sharp(stored.bytes).stats();
    expect(channels[0]!.mean).toBeGreaterThan(200);
    expect(channels[2]!.mean).toBeLessThan(50);
  });

  it('should sanitise the file name it keeps and shows', async () => {
    const userId = newUser();
    const { uploadedFiles } = await uploaded(
      await media.upload(userId, [{ name: 'summer\u202egpj.exe', bytes: await jpeg(512, 512) }]),
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

  describe('with a broken multipart body', () => {
    /** Media is still up and still stores: the same user's next, well-formed upload succeeds. */
    async function expectMediaStillServes(userId: number) {
      const { uploadedFiles } = await uploaded(await media.upload(userId, await selfies(1, 'after')));
      expect(uploadedFiles).toHaveLength(1);
      expect(await media.selfieCount(userId)).toBe(1);
      expect(await media.objectsOf(userId)).toHaveLength(2);
    }

    /** The answer names the field, nothing of the upload is kept, and media goes on serving. */
    async function expectUnreadableAndHarmless(userId: number, body: Buffer) {
      await expectRefusal((await media.rawUpload(userId, body))!, 400, 'COMMON.VALIDATION_FAILED', UNREADABLE_UPLOAD);
      await expectNothingStored(media, userId);
      await expectMediaStillServes(userId);
    }

    it('should answer 400 when the form ends without its closing boundary', async () => {
      const userId = newUser();
      await expectUnreadableAndHarmless(userId, Buffer.concat([partHead('a.jpg'), Buffer.from([0xff, 0xd8, 0xff])]));
    });

    it('should answer 400 and keep nothing when the body stops in the middle of a file', async () => {
      const userId = newUser();
      const [first, second] = await selfies(2);
      const body = Buffer.concat([
        part(first!.name, first!.bytes),
        partHead(second!.name),
        second!.bytes.subarray(0, second!.bytes.length / 2),
      ]);
      await expectUnreadableAndHarmless(userId, body);
    });

    it('should stay up and keep nothing when the sender drops the connection mid-upload', async () => {
      const userId = newUser();
      // The first file takes a while to re-encode, so the second waits its turn when the sender goes.
      const first = await jpeg(2400, 1800, 1);
      const second = await jpeg(800, 600, 2);
      const body = Buffer.concat([
        part('first.jpg', first),
        part('second.jpg', second),
        partHead('third.jpg'),
        second.subarray(0, 1000),
      ]);
      expect(await media.rawUpload(userId, body, { resetAfterMs: 50 })).toBeUndefined();
      // Media still serves others meanwhile; whatever the dropped upload stored is deleted once it notices.
      await expectMediaStillServes(newUser());
      await waitFor(
        async () => (await media.selfieCount(userId)) === 0 && (await media.objectsOf(userId)).length === 0,
        {
          what: 'the dropped upload to leave nothing',
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await expectNothingStored(media, userId);
    });

    it('should answer 400 when the boundary never appears', async () => {
      const userId = newUser();
      await expectUnreadableAndHarmless(userId, randomBytes(64 * 1024));
    });
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
