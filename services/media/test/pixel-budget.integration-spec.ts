import { MediaRpc } from '@likeness/contracts';
import { type MediaUnderTest, expectError, startMedia, uploaded } from './media-harness.js';
import { blackImage } from './test-images.js';

const UPLOADING_A_LOT = "You're uploading a lot right now. Please wait a minute and try again.";
const CONVERTING_A_LOT = "You're converting a lot of images right now. Please wait a minute and try again.";

/** A refusal for the budget: 429 with a whole number of seconds to wait. */
async function expectOverBudget(response: Response, message: string): Promise<void> {
  const retryAfter = Number(response.headers.get('retry-after'));
  await expectError(response, 429, 'COMMON.RATE_LIMITED', message);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
}

describe('the per-user pixel budget', () => {
  let media: MediaUnderTest;
  // 10 MP black JPEGs: cheap to make and to decode (a JPEG is decoded already shrunk).
  let tenMegapixels: Buffer;
  let oneMegapixel: Buffer;

  beforeAll(async () => {
    // 25 MP at once (one file at the per-file cap), refilling at 1 MP a minute: nothing comes back during the test.
    media = await startMedia('pixel-budget', { MEDIA_PIXEL_BURST_MP: '25', MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '1' });
    tenMegapixels = await blackImage(4000, 2500, 'jpeg');
    oneMegapixel = await blackImage(1000, 1000, 'jpeg');
  });

  afterAll(async () => {
    await media?.close();
  });

  it('should take uploads within the budget and refuse the one past it with 429, keeping none of it', async () => {
    const userId = 501;
    await uploaded(await media.upload(userId, [{ name: 'first.jpg', bytes: tenMegapixels }]));
    await uploaded(await media.upload(userId, [{ name: 'second.jpg', bytes: tenMegapixels }]));
    const kept = (await media.objectsOf(userId)).sort();
    expect(kept).toHaveLength(4);

    // The first file fits the 5 MP left and is stored; the second does not, so the upload keeps nothing.
    const refused = await media.upload(userId, [
      { name: 'small.jpg', bytes: oneMegapixel },
      { name: 'third.jpg', bytes: tenMegapixels },
    ]);
    await expectOverBudget(refused, UPLOADING_A_LOT);
    expect(await media.selfieCount(userId)).toBe(2);
    expect((await media.objectsOf(userId)).sort()).toEqual(kept);

    // Another person's budget is their own.
    await uploaded(await media.upload(502, [{ name: 'theirs.jpg', bytes: tenMegapixels }]));
    expect(await media.selfieCount(502)).toBe(1);
  });

  it('should count conversions against the same budget', async () => {
    const userId = 503;
    const { uploadedFiles } = await uploaded(await media.upload(userId, [{ name: 'me.jpg', bytes: tenMegapixels }]));
    const [selfie] = await media.rpc.call(MediaRpc.listSelfies, { userId });
    expect(selfie?.id).toBe(uploadedFiles[0]!.id);
    const convert = () =>
      media.internal(`/internal/format?${new URLSearchParams({ url: selfie!.imageUrl, format: 'png' })}`, { userId });

    // The stored selfie is at most 2048 px a side (2048 × 1280, 2.6 MP): the 15 MP left pay for five.
    for (let conversion = 0; conversion < 5; conversion += 1) {
      const response = await convert();
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    await expectOverBudget(await convert(), CONVERTING_A_LOT);
  });
});
