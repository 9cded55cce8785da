import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, waitFor } from '@likeness/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { seriousAxeViolations } from './axe.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

const SUPPORT_EMAIL = 'hello@likeness.test';
/** The build the stack serves. */
const FRONTEND_DIST = join(ROOT, 'frontend/dist');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** Each public page and the heading that says it has rendered. */
const PUBLIC_PAGES = [
  { path: '/', name: 'landing', heading: /Turn your selfies into/ },
  { path: '/about', name: 'about', heading: 'About Likeness' },
  { path: '/privacy-policy', name: 'privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms-of-service', name: 'terms-of-service', heading: 'Terms of Service' },
  { path: '/cookie-policy', name: 'cookie-policy', heading: 'Cookie Policy' },
  { path: '/scene-explorer', name: 'scene-explorer', heading: 'Transformation Scene Explorer' },
] as const;

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({ SUPPORT_EMAIL, LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '300' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

async function visitorContext(
  viewport = DESKTOP,
  { theme = 'light', clipboard = false }: { theme?: 'light' | 'dark'; clipboard?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport,
    permissions: clipboard ? ['clipboard-read', 'clipboard-write'] : [],
  });
  await context.addInitScript((chosen) => localStorage.setItem('ui-theme', chosen), theme);
  return context;
}

/** Scrolls to the bottom and back so every lazy image below the fold loads, as a reader's scrolling would. */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
}

/**
 * The app has taken over the prerendered page: its controls answer from now on. (The footer's
 * support address comes from the app's first call, so the page is hydrated once it shows.)
 */
async function appStarted(page: Page): Promise<void> {
  await page.getByRole('contentinfo').getByRole('link', { name: SUPPORT_EMAIL }).waitFor();
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function imageLoaded(image: Locator): Promise<boolean> {
  return image.evaluate(
    (element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0,
  );
}

/** The landing page's four hero examples, once every one of them has loaded. */
async function heroExamplesLoaded(page: Page): Promise<Locator> {
  const hero = page.getByRole('list', { name: 'Example avatars' });
  await waitFor(
    async () => {
      const images = await hero.getByRole('img').all();
      return images.length === 4 && (await Promise.all(images.map(imageLoaded))).every(Boolean);
    },
    { what: 'the four hero examples loaded' },
  );
  return hero;
}

/** Credits, 12 selfies and a completed model with the trigger word `pat_face`, as the page's own session. */
async function trainModel(page: Page): Promise<number> {
  const headers = { origin: stack.url };
  const post = (path: string, data: unknown) => page.request.post(`${stack.url}${path}`, { data, headers });
  const { paymentIntentId } = (await (await post('/api/create-payment-intent', { packageId: 'starter' })).json()) as {
    paymentIntentId: string;
  };
  await post('/api/local-payments/confirm', { paymentIntentId, cardNumber: '4242 4242 4242 4242' });
  await post('/api/confirm-payment', { paymentIntentId });

  const form = new FormData();
  for (let index = 0; index < 12; index += 1) {
    const selfie = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
      .blur(6)
      .jpeg()
      .toBuffer();
    form.append('selfies', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), `me-${index}.jpg`);
  }
  const uploaded = await page.request.post(`${stack.url}/api/upload-selfies`, { headers, multipart: form });
  expect(uploaded.status()).toBe(201);
  const ids = ((await uploaded.json()) as { uploadedFiles: { id: number }[] }).uploadedFiles.map((file) => file.id);
  const trained = await post('/api/train-model', { modelName: 'Pat', triggerWord: 'pat_face', referenceImageIds: ids });
  expect(trained.status()).toBe(201);
  return waitFor(
    async () => {
      const models = (await (await page.request.get(`${stack.url}/api/custom-models`)).json()) as {
        id: number;
        status: string;
      }[];
      return models[0]?.status === 'completed' ? models[0].id : undefined;
    },
    { timeoutMs: 30_000, what: 'the model trained' },
  );
}

/** One generation run of `numOutputs` avatars, waited for until it is completed. */
async function generate(page: Page, customModelId: number, numOutputs: number): Promise<void> {
  const started = await page.request.post(`${stack.url}/api/generate-avatar`, {
    data: { promptText: 'pat_face as an astronaut', customModelId, numOutputs },
    headers: { origin: stack.url },
  });
  expect(started.status()).toBe(201);
  const { jobId } = (await started.json()) as { jobId: string };
  await waitFor(
    async () => {
      const job = (await (await page.request.get(`${stack.url}/api/generation-jobs/${jobId}`)).json()) as {
        status: string;
      };
      return job.status === 'completed' || undefined;
    },
    { timeoutMs: 30_000, what: `generation job ${jobId} completed` },
  );
}

describe('the public site in the browser', () => {
  it.each(PUBLIC_PAGES)(
    'should fit $path on a desktop and a phone, in both themes, with no serious accessibility violations',
    async ({ path, name, heading }) => {
      for (const [label, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        for (const theme of ['light', 'dark'] as const) {
          const context = await visitorContext(viewport, { theme });
          const page = await context.newPage();
          await page.goto(`${stack.url}${path}`);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          if (path === '/') await page.getByRole('article', { name: 'Creator Pack' }).waitFor();
          await page.getByRole('contentinfo').getByRole('link', { name: SUPPORT_EMAIL }).waitFor();
          await scrollThrough(page);

          const where = `${label}, ${theme}`;
          expect({ where, overflow: Math.max(0, await horizontalOverflow(page)) }).toEqual({ where, overflow: 0 });
          expect({ where, violations: await seriousAxeViolations(page) }).toEqual({ where, violations: [] });
          expect(await page.title()).toMatch(/Likeness/);
          await page.screenshot({ path: join(SCREENSHOTS, `public-${name}-${label}-${theme}.png`), fullPage: true });
          await context.close();
        }
      }
    },
  );

  it('should draw the landing page from its HTML alone, with no script run', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(stack.url);

    await page.getByRole('heading', { level: 1, name: /Turn your selfies into/ }).waitFor();
    await heroExamplesLoaded(page);
    for (const name of ['One model, endless looks', 'Pay only for what you create', 'Loved by creators']) {
      await page.getByRole('heading', { level: 2, name }).waitFor();
    }
    expect(await page.getByRole('banner').getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/auth');
    expect(await page.title()).toBe('Likeness — AI avatars from your selfies');
    await context.close();
  });

  it('should start the public pages over the drawn page without a hydration error, and switch the theme', async () => {
    // No stored theme to begin with (visitorContext stores one before every page).
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'light' });
    // The elements the HTML drew, kept before any script runs: taking the page over must reuse them
    // (Preact, which runs the public pages, redraws what does not match instead of reporting it).
    await context.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () =>
        Object.assign(window, {
          drawn: ['#root header', '#root h1', '#root footer'].map((selector) => document.querySelector(selector)),
        }),
      ),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|did not match/i.test(message.text())) errors.push(message.text());
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    for (const path of PUBLIC_PAGES.map((page) => page.path)) {
      await page.goto(`${stack.url}${path}`);
      await appStarted(page);
      const drawn = await page.evaluate(() =>
        (window as unknown as { drawn: Element[] }).drawn.map(
          (element) => `${element.tagName}: ${element.isConnected}`,
        ),
      );
      expect(drawn).toEqual(['HEADER: true', 'H1: true', 'FOOTER: true']);
    }
    expect(errors).toEqual([]);
    // The public pages' own light bundle: none of the full app's first-load files.
    const appFiles = [
      ...readFileSync(join(FRONTEND_DIST, 'index.html'), 'utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g),
    ];
    expect(appFiles.length).toBeGreaterThan(0);
    expect(
      scripts.filter((script) => appFiles.some(([, file]) => file === script && !file.includes('rolldown-runtime'))),
    ).toEqual([]);

    await page.getByRole('button', { name: 'Theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await waitFor(async () => page.evaluate(() => document.documentElement.classList.contains('dark')), {
      what: 'the dark theme applied',
    });
    // A drawn page comes dark from its first paint on, before the app starts.
    await page.goto(`${stack.url}/about`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.body !== null);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await appStarted(page);
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL(`${stack.url}/auth`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should show a visitor the example pictures and the packs the server sells', async () => {
    const context = await visitorContext();
    const page = await context.newPage();
    await page.goto(stack.url);

    const hero = await heroExamplesLoaded(page);
    // Served as AVIF (the browser's first choice), not fetched from anywhere else.
    const heroSource = await hero
      .getByRole('img')
      .first()
      .evaluate((image) => (image as HTMLImageElement).currentSrc);
    expect(heroSource).toMatch(new RegExp(`^${stack.url}/images/examples/.+\\.avif$`));

    await page.getByRole('link', { name: 'Examples', exact: true }).first().click();
    await page.waitForURL(`${stack.url}/#examples`);
    const examples = page.getByRole('region', { name: 'One model, endless looks' });
    await waitFor(
      async () => {
        const images = await examples.getByRole('img').all();
        return images.length === 6 && (await Promise.all(images.map(imageLoaded))).every(Boolean);
      },
      { what: 'the six example cards loaded' },
    );

    const packages = (await (await page.request.get(`${stack.url}/api/credit-packages`)).json()) as {
      name: string;
      price: number;
      popular: boolean;
    }[];
    expect(packages).toHaveLength(3);
    for (const pkg of packages) {
      const card = page.getByRole('article', { name: pkg.name });
      await card.getByText(`$${pkg.price}`, { exact: true }).waitFor();
      expect(await card.getByText('Best Value').count()).toBe(pkg.popular ? 1 : 0);
    }
    await page.getByRole('link', { name: 'Buy Credits: Creator Pack' }).click();
    // /credits is for signed-in users: a visitor is asked to sign in first.
    await page.waitForURL(`${stack.url}/auth`);
    await context.close();
  });

  it('should copy an example prompt and say so', async () => {
    const context = await visitorContext(DESKTOP, { clipboard: true });
    const page = await context.newPage();
    await page.goto(`${stack.url}/#examples`);
    await appStarted(page);

    await page.getByRole('button', { name: 'Copy the Cyberpunk Neon prompt' }).click();

    await page.getByText('Prompt copied!', { exact: true }).waitFor();
    await page.getByText('Now you can paste this prompt when creating your own avatar', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cyberpunk Neon prompt copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^cyberpunk portrait/);
    // The check mark goes back to the copy icon.
    await page.getByRole('button', { name: 'Copy the Cyberpunk Neon prompt' }).waitFor();
    await context.close();
  });

  it('should open the phone menu as a dialog that keeps and returns focus', async () => {
    const context = await visitorContext(PHONE);
    const page = await context.newPage();
    await page.goto(stack.url);
    await appStarted(page);
    const open = page.getByRole('button', { name: 'Open menu' });

    await open.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    expect(await menu.getByRole('link').allInnerTexts()).toEqual([
      'How It Works',
      'Examples',
      'Scene Explorer',
      'Pricing',
      'Login / Sign Up',
      'Get Started',
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'public-menu-phone.png') });
    for (let press = 0; press < 10; press += 1) await page.keyboard.press('Tab');
    expect(await menu.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await open.evaluate((button) => button === document.activeElement)).toBe(true);

    await open.click();
    await menu.getByRole('link', { name: 'Scene Explorer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transformation Scene Explorer' }).waitFor();
    await context.close();
  });

  it("should take the header's Pricing link from another page to the landing page's pricing", async () => {
    const context = await visitorContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/about`);

    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();

    await page.waitForURL(`${stack.url}/#pricing`);
    const heading = page.getByRole('heading', { level: 2, name: 'Pay only for what you create' });
    await waitFor(
      async () => {
        const box = await heading.boundingBox();
        return box !== null && box.y >= 0 && box.y < DESKTOP.height;
      },
      { what: 'the pricing section scrolled into view' },
    );
    await context.close();
  });

  it('should serve robots.txt and sitemap.xml for the public pages', async () => {
    const robots = await fetch(`${stack.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const robotsText = await robots.text();
    expect(robotsText).toContain(`Sitemap: ${stack.url}/sitemap.xml`);
    expect(robotsText).toContain('Disallow: /api/');

    const sitemap = await fetch(`${stack.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locations = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      ['/', '/about', '/scene-explorer', '/privacy-policy', '/terms-of-service', '/cookie-policy', '/auth'].map(
        (path) => `${stack.url}${path}`,
      ),
    );
  });

  describe('signed in', () => {
    let page: Page;

    beforeAll(async () => {
      // The first account of a development stack is the administrator.
      page = await registerThroughSpa(browser, stack.url, 'public_pat');
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    });

    it('should show the administrator Admin in the header, the footer, and send them from /auth to the dashboard', async () => {
      await page.getByRole('banner').getByRole('link', { name: 'Admin' }).waitFor();
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).waitFor();
      expect(await page.title()).toBe('Dashboard · Likeness');

      await page.goto(`${stack.url}/auth`);
      await page.waitForURL(`${stack.url}/dashboard`);
      await page.getByRole('heading', { level: 1, name: 'Welcome, public_pat!' }).waitFor();
    });

    it('should offer Profile Settings and Logout in the phone menu', async () => {
      const phone = await registerThroughSpa(browser, stack.url, 'phone_pam', PHONE);
      await phone.getByRole('contentinfo').getByRole('link', { name: SUPPORT_EMAIL }).waitFor();
      expect(Math.max(0, await horizontalOverflow(phone))).toBe(0);
      await phone.screenshot({ path: join(SCREENSHOTS, 'app-dashboard-footer-phone.png'), fullPage: true });
      expect(await phone.getByRole('banner').getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await phone.getByRole('button', { name: 'Open menu' }).click();
      const menu = phone.getByRole('dialog', { name: 'Menu' });
      await menu.getByRole('link', { name: 'Profile Settings' }).waitFor();
      expect(await menu.getByRole('link').allInnerTexts()).toEqual([
        'Home',
        'Create',
        'Gallery',
        'Models',
        'Profile Settings',
      ]);
      expect(await seriousAxeViolations(phone)).toEqual([]);
      await phone.screenshot({ path: join(SCREENSHOTS, 'app-menu-phone.png') });

      await menu.getByRole('button', { name: 'Logout' }).click();
      await phone.waitForURL(`${stack.url}/auth`);
      await phone.context().close();
    });

    it('should welcome a user with avatars back on the landing page with their 4 newest and View All', async () => {
      const modelId = await trainModel(page);
      await generate(page, modelId, 4);
      await generate(page, modelId, 1);

      await page.goto(stack.url);
      await page.getByText('Welcome back, public_pat! Here are your recent avatars:').waitFor();
      const recent = page.getByRole('list').filter({ has: page.getByRole('link', { name: 'View All' }) });
      expect(await recent.getByRole('img').count()).toBe(4);
      await waitFor(
        async () => (await Promise.all((await recent.getByRole('img').all()).map(imageLoaded))).every(Boolean),
        {
          what: 'the recent avatars loaded',
        },
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, 'public-landing-signed-in.png') });

      await recent.getByRole('link', { name: 'View All' }).click();
      await page.waitForURL(`${stack.url}/gallery`);
    });

    it("should go from the app's footer to the landing page's pricing without loading another page", async () => {
      await page.goto(`${stack.url}/dashboard`);
      await page.getByRole('heading', { level: 1, name: 'Welcome, public_pat!' }).waitFor();
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));

      await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();

      await page.waitForURL(`${stack.url}/#pricing`);
      await page.getByRole('heading', { level: 2, name: 'Pay only for what you create' }).waitFor();
      await page.getByRole('article', { name: 'Creator Pack' }).waitFor();
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    });

    it('should take a scene prompt to the dashboard, then prefill it after the trigger word on the create page', async () => {
      await page.goto(`${stack.url}/scene-explorer`);
      await appStarted(page);
      await page.getByRole('tab', { name: 'Adventure' }).click();
      const panel = page.getByRole('tabpanel', { name: 'Adventure' });
      await panel.getByRole('button', { name: 'Previous scene' }).click();
      await panel.getByText('Scene 5 of 5').waitFor();
      await panel.getByRole('heading', { name: 'Arctic Explorer' }).waitFor();

      await panel.getByRole('button', { name: 'Use This Prompt' }).click();

      await page.waitForURL(`${stack.url}/dashboard`);
      const prompt = await page.evaluate(() => navigator.clipboard.readText());
      expect(prompt).toMatch(/^polar explorer/);
      await page.getByRole('banner').getByRole('link', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
      const promptBox = page.getByLabel('Prompt', { exact: true });
      await waitFor(async () => (await promptBox.inputValue()) === `pat_face ${prompt}`, {
        what: 'the prompt prefilled after the trigger word',
      });

      // Taken once: the next visit starts from the trigger word alone.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' }).waitFor();
      await waitFor(async () => (await promptBox.inputValue()) === 'pat_face ', { what: 'the plain trigger word' });
    });
  });
});
