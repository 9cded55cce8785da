import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaRpc } from '@likeness/contracts';
import { LocalObjectStorage } from '@likeness/storage';
import { createTestRpcClient } from '@likeness/testing';
import type { Browser, Locator } from 'playwright-core';
import sharp from 'sharp';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

const signedInPage = (username: string) => registerThroughSpa(browser, stack.url, username);

/** Distinct photo-like JPEGs, as small as a selfie may be (512 px). */
async function selfies(count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => ({
      name: `selfie-${String(index + 1).padStart(2, '0')}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
        .blur(6)
        .jpeg()
        .toBuffer(),
    })),
  );
}

/** Waits until the locator matches exactly `count` elements (the page updates asynchronously). */
async function expectCount(locator: Locator, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await locator.count()) !== count) {
    if (Date.now() > deadline) throw new Error(`Expected ${count} matches, found ${await locator.count()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('selfies and the gallery in the browser', () => {
  it('should upload 12 selfies, show them in the picker, and delete one', async () => {
    const page = await signedInPage('selfie_sue');
    await page.getByRole('link', { name: 'Models' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor();

    await page.getByLabel('Choose selfies to upload').setInputFiles(await selfies(12));
    // The picked files show from blob: URLs before anything is uploaded.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('img[src^="blob:"]')).filter(
          (img) => img.complete && img.naturalWidth > 0,
        ).length === 12,
    );
    await page.getByRole('button', { name: 'Upload 12 selfies' }).click();
    await page.getByText('12 selfies uploaded successfully.', { exact: true }).first().waitFor();

    const picker = page.getByRole('region', { name: /^Image Selection/ });
    await picker.getByRole('heading', { name: 'Image Selection (0/20)' }).waitFor();
    await expectCount(picker.getByRole('checkbox'), 12);
    // Every thumbnail really loads through its signed URL.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('img')).filter((img) => img.complete && img.naturalWidth > 0).length >= 12,
    );
    await picker.getByRole('button', { name: 'Select All' }).click();
    await picker.getByRole('heading', { name: 'Image Selection (12/20)' }).waitFor();
    await page.getByText('Perfect! 12 images selected for optimal training').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'models-selfies.png'), fullPage: true });

    await picker.getByRole('button', { name: 'Delete selfie-01.jpg' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete selfie' }).click();
    await page.getByText('Selfie deleted', { exact: true }).first().waitFor();
    await expectCount(picker.getByRole('checkbox'), 11);
    await picker.getByRole('heading', { name: 'Image Selection (11/20)' }).waitFor();

    // The server agrees after a reload.
    await page.reload();
    await expectCount(page.getByRole('region', { name: /^Image Selection/ }).getByRole('checkbox'), 11);
  });

  it('should open an avatar, download it as JPEG, and delete it', async () => {
    const page = await signedInPage('gallery_gus');
    const userId = ((await (await page.request.get(`${stack.url}/api/user`)).json()) as { id: number }).id;
    const storage = new LocalObjectStorage(join(stack.env['DATA_DIR']!, 'objects'));
    const client = await createTestRpcClient(stack.env['NATS_URL']!, stack.env['NATS_NAMESPACE']!);
    try {
      for (const [index, prompt] of ['gus as a knight, golden hour', 'gus on the moon, studio lighting'].entries()) {
        const stagingKey = `staging/browser-test/${randomBytes(8).toString('hex')}.png`;
        const image = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
          .blur(10)
          .png()
          .toBuffer();
        await storage.put(stagingKey, image, { contentType: 'image/png' });
        await client.rpc.call(MediaRpc.storeAvatar, {
          userId,
          promptText: prompt,
          customModelId: null,
          stagingKey,
          sourceRef: `browser-test:${userId}:${index}`,
        });
      }
    } finally {
      await client.close();
    }

    await page.getByRole('link', { name: 'Gallery' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Your Avatar Gallery' }).waitFor();
    await page.getByRole('tab', { name: 'Recent (2)' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'gallery.png'), fullPage: true });

    await page.getByRole('button', { name: /gus on the moon/ }).click();
    const details = page.getByRole('dialog', { name: 'Avatar Details' });
    await details.getByText('gus on the moon, studio lighting').waitFor();
    await details.getByLabel('Download format').selectOption('jpeg');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      details.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^likeness-avatar-\d+\.jpeg$/);
    const bytes = await readFile((await download.path())!);
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    await page.getByText('Download started', { exact: true }).first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'avatar-details.png') });

    await details.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Delete avatar' }).click();
    await page.getByText('Avatar deleted', { exact: true }).first().waitFor();
    await page.getByRole('tab', { name: 'Recent (1)' }).waitFor();
    await expectCount(page.getByRole('button', { name: /gus on the moon/ }), 0);
  });
});
