import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { waitFor } from '@likeness/testing';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { AccountSetup } from './account-setup.js';
import { expectMatchesBaseline } from './baseline.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({ LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '1500' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

/** Credits, selfies and a trained model, through the API as the page's own session. */
async function readyToCreate(page: Page): Promise<void> {
  const setup = new AccountSetup(page, stack.url);
  await setup.buyCredits();
  await setup.trainModel(await setup.uploadSelfies(12), 'Gia', 'gia_face');
}

describe('creating avatars in the browser', () => {
  it('should build a prompt with Random Look, generate, celebrate and show the avatar in the gallery', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'creator_gia');
    await readyToCreate(page);

    await page.getByRole('link', { name: 'Create', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
    const prompt = page.getByLabel('Prompt', { exact: true });
    // The only ready model is chosen, and its trigger word starts the prompt.
    await waitFor(async () => /^gia_face/.test(await prompt.inputValue()), { what: 'the trigger word in the prompt' });

    // Random Look changes the photo, never the person: the chosen gender and ethnicity and the
    // unchosen age stay as they are, however often it is pressed.
    await page.getByLabel('Gender', { exact: true }).selectOption('Female');
    await page.getByLabel('Ethnicity', { exact: true }).selectOption({ index: 2 });
    const ethnicity = await page.getByLabel('Ethnicity', { exact: true }).inputValue();
    const outfits = new Set<string>();
    for (let press = 0; press < 5; press += 1) {
      await page.getByRole('button', { name: 'Random Look' }).click();
      expect(await page.getByLabel('Gender', { exact: true }).inputValue()).toBe('Female');
      expect(await page.getByLabel('Ethnicity', { exact: true }).inputValue()).toBe(ethnicity);
      expect(await page.getByLabel('Age', { exact: true }).inputValue()).toBe('');
      outfits.add(await page.getByLabel('Outfit', { exact: true }).inputValue());
    }
    expect(outfits.size).toBeGreaterThan(1);
    await waitFor(
      async () => /^gia_face, Female, .+high quality, detailed, professional$/s.test(await prompt.inputValue()),
      { what: 'the built prompt, without the negative prompt' },
    );
    const built = await prompt.inputValue();
    await page.getByRole('button', { name: '1', exact: true }).click();
    await page.screenshot({ path: join(SCREENSHOTS, 'create-desktop.png'), fullPage: true });

    await page.getByRole('button', { name: /^Generate/ }).click();
    const waiting = page.getByRole('dialog', { name: 'Generating your avatars...' });
    await waiting.waitFor();
    // Real progress: the job's stage from the server and the time so far.
    const steps = await waiting.getByRole('list', { name: 'Progress' }).getByRole('listitem').allInnerTexts();
    // Each step's number or tick sits before its name.
    expect(steps.map((step) => step.replace(/^\d?\s*/, ''))).toEqual(['Queued', 'Generating', 'Saving']);
    await waiting.getByTestId('generation-elapsed').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'create-generating.png') });
    await page.getByText('Avatar ready!', { exact: true }).first().waitFor({ timeout: 30_000 });
    const result = page.getByRole('dialog', { name: 'Your avatars are ready!' });
    await result.waitFor();

    // The new photo is revealed in the overlay, large, and downloads.
    const photo = result.getByRole('img', { name: /^New avatar 1 of 1/ });
    await photo.waitFor();
    await waitFor(async () => (await photo.evaluate((element) => (element as HTMLImageElement).naturalWidth)) > 0, {
      what: 'the new photo loaded in the overlay',
    });
    expect((await photo.boundingBox())!.width).toBeGreaterThan(300);
    await page.screenshot({ path: join(SCREENSHOTS, 'create-ready.png') });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      result.getByRole('button', { name: 'Download your new photo' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^likeness-avatar-\d+\.png$/);
    const saved = await readFile((await download.path())!);
    expect((await sharp(saved).metadata()).format).toBe('png');
    // 5 + 50 - 30 (training) - 5 (this run).
    await page.getByRole('link', { name: '20 credits: buy credits' }).waitFor();

    // The prompt is kept for another go.
    await result.getByRole('button', { name: 'Use this prompt again' }).click();
    await result.waitFor({ state: 'detached' });
    expect(await prompt.inputValue()).toBe(built);

    await page.goto(`${stack.url}/gallery`);
    await page.getByRole('heading', { level: 1, name: 'Your Avatar Gallery' }).waitFor();
    await page.getByRole('tab', { name: 'Recent (1)' }).waitFor();
    const image = page.locator('main img').first();
    await image.waitFor();
    await waitFor(async () => (await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)) > 0, {
      what: 'the avatar image loaded',
    });
    expect(built.length).toBeGreaterThan(20);
    await page.screenshot({ path: join(SCREENSHOTS, 'gallery-after-create.png'), fullPage: true });
  });

  it('should fit the create page on a phone', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'phone_pia', { width: 375, height: 812 });
    await page.goto(`${stack.url}/create`);
    await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
    await page.getByText("You don't have any custom models yet.", { exact: false }).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'create-phone.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('ui-theme', 'dark'));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
    await page.getByRole('button', { name: 'Random Look' }).click();
    await page.screenshot({ path: join(SCREENSHOTS, 'create-phone-dark.png'), fullPage: true });
  });

  it("should keep the customizer's header on one line with its actions beneath it on a phone", async () => {
    const page = await registerThroughSpa(browser, stack.url, 'phone_quin', { width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('ui-theme', 'light'));
    await page.goto(`${stack.url}/create`);
    await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
    const customizer = page.locator('[data-tour="character-customizer"]');
    const title = customizer.getByRole('button', { name: /^Character Customizer/ });
    const randomLook = customizer.getByRole('button', { name: 'Random Look' });
    await randomLook.waitFor();

    const titleBox = (await title.locator('span.font-medium').boundingBox())!;
    const randomBox = (await randomLook.boundingBox())!;
    // One line of title (not a word a line), and "Random Look" below it rather than over it.
    expect(titleBox.height).toBeLessThan(30);
    expect(randomBox.y).toBeGreaterThanOrEqual(titleBox.y + titleBox.height);
    await expectMatchesBaseline(customizer.locator(':scope > div').first(), 'create-customizer-header-phone');
  });
});
