import { join } from 'node:path';
import { waitFor } from '@likeness/testing';
import type { Browser } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { AccountSetup } from './account-setup.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';
import { buyStarterPack, selfieFiles } from './fixtures.js';

/** Long enough that the Models page, polling every 3 seconds, would ask several times meanwhile. */
const TRAINING_MS = 12_000;
/** Long enough that the Create page, polling its job every 3 seconds (or 5), would ask several times. */
const GENERATION_MS = 12_000;

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({ LOCAL_TRAINING_MS: String(TRAINING_MS), LOCAL_GENERATION_MS: String(GENERATION_MS) });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

it('shows a finished training on the Models page from the live events, without reloading or polling', async () => {
  const page = await registerThroughSpa(browser, stack.url, 'live_lena');
  await buyStarterPack(page, stack.url);
  await page.goto(`${stack.url}/models`);
  await page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor();
  await page.getByLabel('Choose selfies to upload').setInputFiles(await selfieFiles(12));
  await page.getByRole('button', { name: 'Upload 12 selfies' }).click();
  await page.getByText('12 selfies uploaded successfully.', { exact: true }).first().waitFor();

  const stream = page.waitForResponse((response) => response.url().endsWith('/api/events'));
  await page.reload();
  expect((await stream).status()).toBe(200);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const modelListRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/custom-models') modelListRequests.push(request.method());
  });

  const images = (await (await page.request.get(`${stack.url}/api/uploaded-images`)).json()) as { id: number }[];
  const started = await page.request.post(`${stack.url}/api/train-model`, {
    headers: { origin: stack.url },
    data: { modelName: 'Lena live model', triggerWord: 'lena_face', referenceImageIds: images.map(({ id }) => id) },
  });
  expect(started.status()).toBe(201);

  const list = page.getByRole('region', { name: 'Your Custom Models' });
  await list.getByText('Lena live model').waitFor();
  await list.getByText('Ready to use').waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(SCREENSHOTS, 'models-ready-live.png'), fullPage: true });

  expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  // One read when the training started and one when it finished, each asked for by an event:
  // polling every 3 seconds through a 12-second training would have asked at least 4 times.
  expect(modelListRequests.length).toBeLessThanOrEqual(2);
  // The balance follows the hold without a reload either: 5 + 50 - 30.
  await page.getByRole('link', { name: '25 credits: buy credits' }).waitFor();
});

it("shows a running generation's stages on the Create page from the live events, without polling its job", async () => {
  const page = await registerThroughSpa(browser, stack.url, 'live_gia');
  const setup = new AccountSetup(page, stack.url);
  await setup.buyCredits();
  await setup.trainModel(await setup.uploadSelfies(12), 'Gia live model', 'gia_face');

  const stream = page.waitForResponse((response) => response.url().endsWith('/api/events'));
  await page.goto(`${stack.url}/create`);
  await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
  expect((await stream).status()).toBe(200);
  const prompt = page.getByLabel('Prompt', { exact: true });
  await waitFor(async () => (await prompt.inputValue()).startsWith('gia_face'), {
    what: 'the trigger word in the prompt',
  });
  const jobReads: string[] = [];
  page.on('request', (request) => {
    if (/^\/api\/generation-jobs\/[0-9a-f-]{36}$/.test(new URL(request.url()).pathname))
      jobReads.push(request.method());
  });

  await page.getByRole('button', { name: /^Generate/ }).click();
  const waiting = page.getByRole('dialog', { name: 'Generating your avatars...' });
  await waiting.waitFor();
  // Every step the overlay marks as current, as it changes.
  await waiting.evaluate((dialog) => {
    const seen: string[] = [];
    const note = () => {
      const stage = dialog.querySelector('[aria-current="step"]')?.getAttribute('data-stage');
      if (stage && seen.at(-1) !== stage) seen.push(stage);
    };
    note();
    new MutationObserver(note).observe(dialog, { subtree: true, attributes: true, childList: true });
    Object.assign(window, { stagesSeen: seen });
  });
  await waiting.locator('[aria-current="step"][data-stage="generating"]').waitFor();
  await page.screenshot({ path: join(SCREENSHOTS, 'create-generating-live.png') });
  await page.getByText('Avatar ready!', { exact: true }).first().waitFor({ timeout: 60_000 });

  const stages = (await page.evaluate(() => (window as unknown as { stagesSeen: string[] }).stagesSeen)) as string[];
  // Saving shows only from its event: the job's own reads were at its start and at its end.
  expect(stages.slice(-2)).toEqual(['generating', 'saving']);
  // A read when it started and one when it ended, the end asked for by its event, and one more
  // should its first progress arrive while the first read was still under way: polling every 3 s
  // through a 12-second generation would have read it at least 4 times more (every 5 s, twice).
  expect(jobReads.length).toBeGreaterThanOrEqual(2);
  expect(jobReads.length).toBeLessThanOrEqual(3);
});
