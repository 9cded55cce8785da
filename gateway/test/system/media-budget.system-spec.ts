import type { UploadedImage } from '@likeness/contracts';
import sharp from 'sharp';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

const UPLOADING_A_LOT = "You're uploading a lot right now. Please wait a minute and try again.";

/** A black 4000 × 2500 JPEG: 10 megapixels by its header, a few kilobytes, cheap to decode. */
const tenMegapixels = () =>
  sharp({ create: { width: 4000, height: 2500, channels: 3, background: '#000000' } })
    .jpeg()
    .toBuffer();

function form(name: string, bytes: Buffer): FormData {
  const body = new FormData();
  body.append('selfies', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  return body;
}

describe("media's pixel budget through the gateway", () => {
  let stack: RunningStack;
  let api: ReturnType<typeof apiClient>;
  let ada: Session;
  let bob: Session;

  beforeAll(async () => {
    // 25 MP at once, refilling at 1 MP a minute: two 10 MP uploads pass, a third does not.
    stack = await startTestStack(
      {},
      { appEnv: { media: { MEDIA_PIXEL_BURST_MP: '25', MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '1' } } },
    );
    api = apiClient(stack.url);
    ada = await api.register('ada_budget');
    bob = await api.register('bob_budget');
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it("should refuse the upload past a person's budget with 429 and Retry-After, keeping none of it", async () => {
    const bytes = await tenMegapixels();
    const upload = (session: Session, name: string) =>
      api.call('/api/upload-selfies', { method: 'POST', session, body: form(name, bytes) });
    expect((await upload(ada, 'first.jpg')).status).toBe(201);
    expect((await upload(ada, 'second.jpg')).status).toBe(201);

    const refused = await upload(ada, 'third.jpg');
    expectError(refused, 429, 'COMMON.RATE_LIMITED', UPLOADING_A_LOT);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const kept = (await api.call('/api/uploaded-images', { session: ada })).json as UploadedImage[];
    expect(kept.map((image) => image.originalFilename).sort()).toEqual(['first.jpg', 'second.jpg']);

    expect((await upload(bob, 'theirs.jpg')).status).toBe(201);
  });
});
