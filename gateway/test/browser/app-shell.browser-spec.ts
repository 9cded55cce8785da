import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ROOT, tempDir, waitFor } from '@likeness/testing';
import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { ONBOARDING_COMPLETED_KEY, SCREENSHOTS, launchChromium } from './chromium.js';

/** A copy of the build, so one test can deploy a new version of it under the running stack. */
const staticDir = tempDir('spa');
cpSync(join(ROOT, 'frontend/dist'), staticDir, { recursive: true });

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

let stack: RunningStack;
/** Its pages are new users: the onboarding tour opens for them. */
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({}, { staticDir });
  browser = await launchChromium({ newUser: true });
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

/** Without motion the tour moves between steps at once (driver.js ignores keys while it animates). */
async function newPage(viewport = DESKTOP, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
  return context.newPage();
}

/** A new user, signed up through the SPA, on the dashboard. */
async function signUp(page: Page, username: string): Promise<void> {
  await page.goto(`${stack.url}/auth?tab=register`);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse');
  await page.getByLabel('Confirm Password').fill('correct-horse');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { level: 1, name: `Welcome, ${username}!` }).waitFor();
}

/** The tour's step n is shown and has settled (it takes keys again from the next frame). */
async function atStep(page: Page, step: number): Promise<void> {
  await tourDialog(page).getByText(`Step ${step} of 6`).waitFor();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

const highlighted = (page: Page, target: string) => page.locator(`.driver-active-element[data-tour~="${target}"]`);

/** The page once the service worker controls it (the first visit installs it; a reload is then served by it). */
async function controlledBy(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

const tourDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: /Step \d of 6/ });

function fakeInstallOffer(page: Page): Promise<void> {
  return page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: () => Promise.resolve(),
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
}

describe('the installable app', () => {
  it('should offer a manifest with maskable icons and both themes’ colours', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/auth`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(`${stack.url}${href}`)).json()) as {
      name: string;
      short_name: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };

    expect(manifest).toMatchObject({ short_name: 'Likeness', display: 'standalone', theme_color: '#fcfbfe' });
    expect(manifest.icons.filter((icon) => icon.purpose === 'maskable').map((icon) => icon.sizes)).toEqual([
      '192x192',
      '512x512',
    ]);
    for (const icon of manifest.icons) {
      const answer = await page.request.get(`${stack.url}${icon.src}`);
      expect(answer.headers()['content-type']).toBe('image/png');
    }
    const themeColors = await page
      .locator('meta[name="theme-color"]')
      .evaluateAll((metas) => metas.map((meta) => meta.getAttribute('media')));
    expect(themeColors).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);
  });

  it('should register the service worker, cache no API answer or image, and show the offline page when the network is gone', async () => {
    const page = await newPage();
    await page.addInitScript((key) => window.localStorage.setItem(key, 'true'), ONBOARDING_COMPLETED_KEY);
    await signUp(page, 'pwa_paula');
    await controlledBy(page);
    await page.goto(`${stack.url}/gallery`);
    await page.getByRole('heading', { level: 1, name: 'Your Avatar Gallery' }).waitFor();

    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/offline.html');
    expect(cached.some((path) => path.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((path) => path.startsWith('/api/'))).toEqual([]);

    await page.context().setOffline(true);
    await page.goto(`${stack.url}/models`);
    await page.getByRole('heading', { level: 1, name: 'No Internet Connection' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'offline-page.png') });

    // Back online, the page loads again: by itself on the browser's "online" event, or from
    // Try Again (the service worker may hear of the connection a moment after the page).
    await page.context().setOffline(false);
    const models = page.getByRole('heading', { level: 1, name: 'Custom AI Models' });
    await waitFor(
      async () => {
        if (await models.isVisible()) return true;
        await page
          .getByRole('button', { name: 'Try Again' })
          .click({ timeout: 1000 })
          .catch(() => undefined);
        return false;
      },
      { timeoutMs: 20_000, what: 'the models page back online' },
    );
  });

  it('should offer the new version of a deploy and reload into it', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/auth`);
    await controlledBy(page);
    deployNewServiceWorker();
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    const card = page.getByRole('region', { name: 'Update available' });
    await card.getByText('A new version is available').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'update-prompt.png') });

    await page.evaluate(() => Object.assign(window, { staleApp: true }));
    await card.getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(() => !('staleApp' in window) && document.readyState === 'complete');
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    const waiting = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null);
    expect(waiting).toBe(null);
    await card.waitFor({ state: 'detached' });
  });

  it('should show the install card when the browser offers installation, and never again once dismissed', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/auth`);
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await fakeInstallOffer(page);
    const card = page.getByRole('region', { name: 'Install Likeness' });
    await card.getByRole('button', { name: 'Install App' }).waitFor();

    await card.getByRole('button', { name: 'Not Now' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.localStorage.getItem('pwa-install-dismissed'))).toBe('true');

    await page.reload();
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await fakeInstallOffer(page);
    await page.getByRole('tab', { name: 'Register' }).click();
    expect(await card.count()).toBe(0);
  });
});

/** Rewrites the copy's service worker (and its compressed twins) as a new deploy would. */
function deployNewServiceWorker(): void {
  const file = join(staticDir, 'sw.js');
  const script = `${readFileSync(file, 'utf8')}\n// deploy ${Date.now()}\n`;
  writeFileSync(file, script);
  writeFileSync(`${file}.br`, brotliCompressSync(script));
  writeFileSync(`${file}.gz`, gzipSync(script));
}

describe('the offline banner', () => {
  it('should say "No Internet Connection" while offline, then "Back Online" until it hides', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/auth`);
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    const banner = page.getByRole('status').filter({ hasText: /Internet|Online/ });

    await page.context().setOffline(true);
    await banner.getByText('No Internet Connection').waitFor();
    await page.context().setOffline(false);
    await banner.getByText('Back Online').waitFor();
    await banner.getByText('Back Online').waitFor({ state: 'detached' });
    expect(await banner.count()).toBe(0);
  });
});

describe('the onboarding tour', () => {
  it('should walk through six steps by keyboard, close with Escape, and not reopen once completed', async () => {
    const page = await newPage();
    await signUp(page, 'tour_tina');
    const tour = tourDialog(page);
    await atStep(page, 1);
    await tour.getByText('Welcome to Likeness!').waitFor();

    // Escape (like the X) closes it without marking it done: it opens again on the next visit.
    await page.keyboard.press('Escape');
    await tour.waitFor({ state: 'detached' });
    expect(await page.evaluate((key) => window.localStorage.getItem(key), ONBOARDING_COMPLETED_KEY)).toBe(null);
    await page.reload();

    const titles = [
      'Welcome to Likeness!',
      'Upload your selfies',
      'Character customizer',
      'Describe your photo',
      'Your gallery',
      'Credits',
    ];
    for (const [index, title] of titles.entries()) {
      await atStep(page, index + 1);
      await tour.getByText(title, { exact: true }).waitFor();
      if (index < titles.length - 1) await page.keyboard.press('ArrowRight');
    }
    await tour
      .getByText(
        'Making a photo costs 5 credits. Training your AI twin costs 30 credits. Start with $5 for 50 credits - no monthly fees!',
      )
      .waitFor();
    await highlighted(page, 'credits').waitFor();
    // Tab stays inside the step; Enter on "Get Started" completes the tour.
    for (let presses = 0; presses < 6; presses += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Get Started') break;
    }
    await page.keyboard.press('Enter');
    await tour.waitFor({ state: 'detached' });
    expect(await page.evaluate((key) => window.localStorage.getItem(key), ONBOARDING_COMPLETED_KEY)).toBe('true');

    // It would open 2 s after load: give it that long and more, once, to show it stays closed.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, tour_tina!' }).waitFor();
    await page.waitForTimeout(3000);
    expect(await tour.count()).toBe(0);
  });

  it('should restart from the Help tab and stay closed after Skip tour', async () => {
    const page = await newPage();
    await signUp(page, 'tour_theo');
    await page.evaluate((key) => window.localStorage.setItem(key, 'true'), ONBOARDING_COMPLETED_KEY);
    await page.goto(`${stack.url}/profile?tab=help`);
    await page.getByRole('link', { name: 'Restart Tour' }).click();

    const tour = tourDialog(page);
    await atStep(page, 1);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await tour.getByRole('button', { name: 'Next' }).click();
    await atStep(page, 2);
    await highlighted(page, 'custom-models').waitFor();
    await tour.getByRole('button', { name: 'Skip tour' }).click();
    await tour.waitFor({ state: 'detached' });
    expect(await page.evaluate((key) => window.localStorage.getItem(key), ONBOARDING_COMPLETED_KEY)).toBe('true');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, tour_theo!' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.waitForTimeout(3000);
    expect(await tour.count()).toBe(0);
  });
});

describe('the app shell on screen', () => {
  it.each([
    { device: 'desktop', viewport: DESKTOP, theme: 'light' },
    { device: 'desktop', viewport: DESKTOP, theme: 'dark' },
    { device: 'phone', viewport: PHONE, theme: 'light' },
    { device: 'phone', viewport: PHONE, theme: 'dark' },
  ] as const)(
    'should show the tour, the banner and the install card on a $device in the $theme theme without overflow',
    async ({ device, viewport, theme }) => {
      const page = await newPage(viewport, theme);
      await signUp(page, `shell_${device}_${theme}`);

      const tour = tourDialog(page);
      await atStep(page, 1);
      await page.keyboard.press('ArrowRight');
      await atStep(page, 2);
      await page.screenshot({ path: join(SCREENSHOTS, `tour-${device}-${theme}.png`) });
      await tour.getByRole('button', { name: 'Skip tour' }).click();
      await tour.waitFor({ state: 'detached' });

      await fakeInstallOffer(page);
      await page.getByRole('region', { name: 'Install Likeness' }).waitFor();
      await page.context().setOffline(true);
      await page.getByText('No Internet Connection').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `shell-cards-${device}-${theme}.png`) });
      await page.context().setOffline(false);

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
  );
});
