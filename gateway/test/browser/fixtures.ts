import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import sharp from 'sharp';

/** Buys the Starter Pack (50 credits) with the local test card, as the page's own session. */
export async function buyStarterPack(page: Page, url: string): Promise<void> {
  const headers = { origin: url };
  const intent = await (
    await page.request.post(`${url}/api/create-payment-intent`, { data: { packageId: 'starter' }, headers })
  ).json();
  const paymentIntentId = intent.paymentIntentId as string;
  await page.request.post(`${url}/api/local-payments/confirm`, {
    data: { paymentIntentId, cardNumber: '4242 4242 4242 4242' },
    headers,
  });
  const confirmed = await page.request.post(`${url}/api/confirm-payment`, { data: { paymentIntentId }, headers });
  expect(await confirmed.json()).toEqual({ credits: 50 });
}

/** Distinct photo-like JPEGs of the smallest size a selfie may be (512 px), for a file input. */
export function selfieFiles(count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => ({
      name: `me-${index + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
        .blur(6)
        .jpeg()
        .toBuffer(),
    })),
  );
}
