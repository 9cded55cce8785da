import { waitFor } from '@likeness/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { AccountSetup } from './account-setup.js';
import { seriousAxeViolations } from './axe.js';
import { expectMatchesBaseline } from './baseline.js';
import { launchChromium, registerThroughSpa } from './chromium.js';

const ADMIN = { username: 'polish_admin', email: 'polish_admin@likeness.test', password: 'Sturdy-Harbor-42!' };
const PHONE = { width: 390, height: 844 };

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({
    LOCAL_TRAINING_MS: '300',
    LOCAL_GENERATION_MS: '500',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

/** Credits, a trained model and one avatar, through the API as the page's own session. */
async function withFirstAvatar(page: Page): Promise<AccountSetup> {
  const setup = new AccountSetup(page, stack.url);
  await setup.buyCredits();
  const modelId = await setup.trainModel(await setup.uploadSelfies(12), 'Polly', 'polly_face');
  await setup.generateAvatar(modelId, 'polly_face in a sunlit studio');
  return setup;
}

/** The same session in a phone-sized browser with a touch screen (no hover). */
async function onTouchPhone(page: Page): Promise<Page> {
  const storageState = await page.context().storageState();
  const context = await browser.newContext({ storageState, viewport: PHONE, hasTouch: true, isMobile: true });
  await context.addInitScript(() => localStorage.setItem('ui-theme', 'light'));
  return context.newPage();
}

/** How opaque an element is drawn: its own opacity times its ancestors'. */
function drawnOpacity(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    let opacity = 1;
    for (let node: Element | null = element; node; node = node.parentElement) {
      opacity *= Number(getComputedStyle(node).opacity);
    }
    return opacity;
  });
}

/** The step card of the get-started guide whose title is `title`. */
function guideStep(page: Page, title: string): Locator {
  return page.getByRole('region', { name: 'Get Started' }).getByRole('link', { name: new RegExp(title) });
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto(`${stack.url}/dashboard`);
  await page.getByRole('heading', { level: 1, name: /^Welcome, / }).waitFor();
}

/** Photos change from run to run: hidden, so a layout baseline holds only the layout. */
async function hidePhotos(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.querySelectorAll<HTMLElement>('main img').forEach((image) => (image.style.visibility = 'hidden'));
  });
}

describe('the signed-in screens at a consumer standard', () => {
  it('should guide a new account through buy, upload, train and create, one step after another', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'first_fay');
    const setup = new AccountSetup(page, stack.url);
    const guide = page.getByRole('region', { name: 'Get Started' });
    await guide.waitFor();

    // A new account sees where to begin, not a row of zeros.
    expect(await page.getByText('Avatars Created', { exact: true }).count()).toBe(0);
    await guide.getByText('0 of 4 done').waitFor();
    expect(await guideStep(page, 'Buy credits').getAttribute('aria-current')).toBe('step');
    expect(await guideStep(page, 'Buy credits').innerText()).toContain('Next step');
    expect(await guideStep(page, 'Buy credits').getAttribute('href')).toBe('/credits');
    expect(await guideStep(page, 'Upload selfies').getAttribute('href')).toBe('/models');
    expect(await guideStep(page, 'Train your model').getAttribute('href')).toBe('/models');
    expect(await guideStep(page, 'Create your photos').getAttribute('href')).toBe('/create');
    for (const later of ['Upload selfies', 'Train your model', 'Create your photos']) {
      expect(await guideStep(page, later).innerText()).toContain('Later');
    }
    expect(await guide.getByRole('link', { name: 'Buy Credits', exact: true }).getAttribute('href')).toBe('/credits');

    await setup.buyCredits();
    await openDashboard(page);
    await guide.getByText('1 of 4 done').waitFor();
    expect(await guideStep(page, 'Buy credits').innerText()).toContain('Done');
    expect(await guideStep(page, 'Buy credits').innerText()).toContain('You have 55 credits');
    expect(await guideStep(page, 'Upload selfies').getAttribute('aria-current')).toBe('step');
    await guide.getByRole('link', { name: 'Upload Selfies', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor();

    const modelId = await setup.trainModel(await setup.uploadSelfies(12), 'Fay', 'fay_face');
    await openDashboard(page);
    await guide.getByText('3 of 4 done').waitFor();
    expect(await guideStep(page, 'Create your photos').getAttribute('aria-current')).toBe('step');
    expect(await guide.getByRole('link', { name: 'Start Creating', exact: true }).getAttribute('href')).toBe('/create');

    // The first avatar ends the guide: the balance, once, and the counts take its place.
    await setup.generateAvatar(modelId, 'fay_face on a beach');
    await openDashboard(page);
    await page.getByRole('region', { name: 'Available credits' }).getByText('20', { exact: true }).waitFor();
    expect(await guide.count()).toBe(0);
    expect(await page.getByText('Credits Left', { exact: true }).count()).toBe(0);
    await page.getByText('Avatars Created', { exact: true }).waitFor();
  });

  it('should keep Start Training disabled, saying why, until 12 selfies are selected and 30 credits are there', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'trainer_tom');
    const setup = new AccountSetup(page, stack.url);
    await setup.uploadSelfies(12);
    let trainRequests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/train-model') trainRequests += 1;
    });
    const start = page.getByRole('button', { name: /^Start Training/ });
    const description = () =>
      start.evaluate((button) =>
        (button.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );

    await page.goto(`${stack.url}/models`);
    await page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor();
    await page.getByText('Select 12 selfies (0 selected)').waitFor();
    expect(await start.getAttribute('aria-disabled')).toBe('true');
    expect(await description()).toContain('Select 12 selfies (0 selected)');
    await start.click({ force: true });

    const tiles = page.getByRole('checkbox');
    for (let index = 0; index < 7; index += 1) await tiles.nth(index).press('Space');
    await page.getByText('Select 12 selfies (7 selected)').waitFor();
    expect(await start.getAttribute('aria-disabled')).toBe('true');

    // Enough selfies, too few credits (5 of 30): still disabled, and that is the reason now.
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText('Perfect! 12 images selected for optimal training').waitFor();
    expect(await page.getByText(/^Select 12 selfies/).count()).toBe(0);
    expect(await start.getAttribute('aria-disabled')).toBe('true');
    expect(await description()).toContain('You need at least 30 credits to train a custom model');
    await start.click({ force: true });

    await setup.buyCredits();
    await page.reload();
    await page.getByRole('link', { name: '55 credits: buy credits' }).waitFor();
    await page.getByRole('button', { name: 'Select All' }).click();
    await waitFor(async () => (await start.getAttribute('aria-disabled')) === null, { what: 'Start Training enabled' });
    await start.click();
    await page.getByText('Training started!', { exact: true }).first().waitFor();
    // The disabled presses sent nothing; the enabled one sent the one training.
    expect(trainRequests).toBe(1);
  });

  it("should show the dashboard's photos clean on a phone, their actions a tap away, in a stable layout", async () => {
    const registered = await registerThroughSpa(browser, stack.url, 'phone_pam', PHONE);
    await withFirstAvatar(registered);
    const page = await onTouchPhone(registered);
    await openDashboard(page);
    const recent = page.getByRole('region', { name: 'Recent Avatars' });
    const photo = recent.getByRole('img').first();
    await photo.waitFor();
    await waitFor(async () => (await photo.evaluate((image) => (image as HTMLImageElement).naturalWidth)) > 0, {
      what: 'the photo loaded',
    });

    // Nothing covers the photo until it is tapped; a tap shows the date, the prompt and the actions.
    const copy = recent.getByRole('button', { name: 'Copy' });
    expect(await drawnOpacity(copy)).toBe(0);
    expect(await drawnOpacity(recent.getByText('polly_face in a sunlit studio'))).toBe(0);
    await recent.getByRole('button', { name: 'Show actions' }).tap();
    await waitFor(async () => (await drawnOpacity(copy)) === 1, { what: 'the actions shown after a tap' });
    await copy.tap();
    await page.getByText('Prompt copied', { exact: true }).first().waitFor();
    await recent.getByRole('button', { name: 'Show actions' }).tap();
    await waitFor(async () => (await drawnOpacity(copy)) === 0, { what: 'the actions hidden after a second tap' });

    await hidePhotos(page);
    await expectMatchesBaseline(page.getByRole('region', { name: 'Available credits' }), 'dashboard-credits-phone');
    await expectMatchesBaseline(page.getByRole('region', { name: 'Quick Stats' }), 'dashboard-stats-phone');
    await expectMatchesBaseline(recent.getByRole('list'), 'dashboard-recent-avatars-phone');
  });

  it('should keep the Continue bar solid and flush on the bottom navigation on a phone, and line up the packs', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'bar_bea', PHONE);
    await page.evaluate(() => localStorage.setItem('ui-theme', 'light'));
    await page.goto(`${stack.url}/credits`);
    await page.getByRole('heading', { level: 1, name: 'Buy Credits' }).waitFor();
    await page.getByRole('radio', { name: 'Creator Pack' }).check();
    await page.getByText('125 credits for $11', { exact: true }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 420));

    const bottomNav = page.getByRole('navigation', { name: 'Main' });
    const bar = page.getByRole('button', { name: 'Continue to Payment' }).locator('xpath=..');
    const [barBox, navBox] = [(await bar.boundingBox())!, (await bottomNav.boundingBox())!];
    // Edge to edge and sitting on the navigation: no gap for the cards to show through.
    expect(barBox.x).toBe(0);
    expect(barBox.width).toBe(PHONE.width);
    expect(Math.abs(barBox.y + barBox.height - navBox.y)).toBeLessThanOrEqual(1);
    const background = await bar.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).not.toMatch(/rgba|\/ 0\.|color\(.*\/ /);
    await expectMatchesBaseline(page, 'credits-continue-bar-phone');

    // On a desktop row of three, each row of a pack starts level with the same row of the others
    // (at 1024 px the descriptions wrap to different heights).
    await page.setViewportSize({ width: 1024, height: 900 });
    // The pointer off the cards: a hovered card lifts by two pixels.
    await page.mouse.move(0, 0);
    const spread = async (text: RegExp) => {
      const ys = await Promise.all((await page.getByText(text).all()).map(async (row) => (await row.boundingBox())!.y));
      return ys.length === 3 ? Math.max(...ys) - Math.min(...ys) : Infinity;
    };
    for (const row of [/^\$\d+$/, /^Up to \d+ avatar generations$/]) {
      await waitFor(async () => (await spread(row)) <= 1, { what: `the packs' ${row} rows level` });
    }
  });

  it('should have no serious accessibility violations on any signed-in screen, light and dark', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'axe_ava');
    await page.evaluate(() => localStorage.setItem('ui-theme', 'light'));
    await withFirstAvatar(page);
    const { paymentIntentId } = await new AccountSetup(page, stack.url).buyCredits();
    const screens: [path: string, ready: string][] = [
      ['/dashboard', 'Recent Avatars'],
      ['/create', 'Prompt & Generation'],
      ['/gallery', 'Your Avatar Gallery'],
      ['/models', 'Your Custom Models'],
      ['/credits', 'How Credits Work'],
      ['/checkout/creator', 'Payment details'],
      [`/success?payment_intent=${paymentIntentId}&redirect_status=succeeded`, 'Payment Successful!'],
      ['/profile?tab=account', 'Delete account'],
      ['/profile?tab=billing', 'Credit history'],
      ['/profile?tab=security', 'Change Password'],
      ['/profile?tab=help', 'Frequently asked questions'],
    ];
    for (const [path, ready] of screens) {
      await page.goto(`${stack.url}${path}`);
      await page.getByRole('heading', { name: ready }).first().waitFor();
      expect({ path, violations: await seriousAxeViolations(page) }).toEqual({ path, violations: [] });
    }

    await page.evaluate(() => localStorage.setItem('ui-theme', 'dark'));
    for (const [path, ready] of [screens[0]!, screens[4]!]) {
      await page.goto(`${stack.url}${path}`);
      await page.getByRole('heading', { name: ready }).first().waitFor();
      expect({ path, dark: true, violations: await seriousAxeViolations(page) }).toEqual({
        path,
        dark: true,
        violations: [],
      });
    }

    const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await admin.goto(`${stack.url}/login`);
    await admin.getByLabel('Username or Email').fill(ADMIN.username);
    await admin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Log In' }).click();
    await admin.getByRole('heading', { level: 1, name: `Welcome, ${ADMIN.username}!` }).waitFor();
    for (const tab of ['users', 'security']) {
      await admin.goto(`${stack.url}/admin?tab=${tab}`);
      await admin.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      await admin.getByRole('tabpanel').waitFor();
      expect({ tab, violations: await seriousAxeViolations(admin) }).toEqual({ tab, violations: [] });
    }
  });
});
