import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';
import { buyStarterPack, selfieFiles } from './fixtures.js';

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({ LOCAL_TRAINING_MS: '2000' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

describe('training a model in the browser', () => {
  it('should train on 12 selected selfies and show the model as "Ready to use"', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'trainer_tess');
    await buyStarterPack(page, stack.url);
    await page.goto(`${stack.url}/models`);
    await page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor();
    await page
      .getByText(/Local preview mode/)
      .first()
      .waitFor();

    await page.getByLabel('Choose selfies to upload').setInputFiles(await selfieFiles(12));
    await page.getByRole('button', { name: 'Upload 12 selfies' }).click();
    await page.getByText('12 selfies uploaded successfully.', { exact: true }).first().waitFor();
    const picker = page.getByRole('region', { name: /^Image Selection/ });
    await picker.getByRole('button', { name: 'Select All' }).click();
    await picker.getByRole('heading', { name: 'Image Selection (12/20)' }).waitFor();

    await page.getByLabel('Model name').fill('Tess portrait model');
    await page.getByLabel('Trigger word').fill('tess_face');
    await page.getByRole('button', { name: 'Start Training (30 credits)' }).click();
    await page.getByText('Training started!', { exact: true }).first().waitFor();
    // 5 + 50 bought - 30 held for the training.
    await page.getByRole('link', { name: '25 credits: buy credits' }).waitFor();

    const list = page.getByRole('region', { name: 'Your Custom Models' });
    await list.getByText('Tess portrait model').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'models-training.png'), fullPage: true });
    await list.getByText('Ready to use').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'models-ready.png'), fullPage: true });
    await page.getByRole('link', { name: '25 credits: buy credits' }).waitFor();
  });
});
