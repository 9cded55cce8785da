import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { type AxeViolation, seriousAxeViolations } from './axe.js';
import { launchChromium, registerThroughSpa } from './chromium.js';

const ADMIN = { username: 'axe_admin', email: 'axe_admin@likeness.test', password: 'Sturdy-Harbor-42!' };
const DESKTOP = { width: 1280, height: 900 };

let stack: RunningStack;
let browser: Browser;
/** A fresh user's signed-in page, and the administrator's. */
let user: Page;
let admin: Page;

beforeAll(async () => {
  // The bootstrap makes id 1 the administrator in the stack's fresh database.
  stack = await startTestStack({
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  browser = await launchChromium();
  user = await registerThroughSpa(browser, stack.url, 'axe_ursula');
  admin = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await admin.goto(`${stack.url}/login`);
  await admin.getByLabel('Username or Email').fill(ADMIN.username);
  await admin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await admin.getByRole('button', { name: 'Log In' }).click();
  await admin.getByRole('heading', { level: 1, name: `Welcome, ${ADMIN.username}!` }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

/** A visitor's page in the given theme. */
async function visitor(colorScheme: 'light' | 'dark'): Promise<Page> {
  return (await browser.newContext({ viewport: DESKTOP, colorScheme })).newPage();
}

/** The route, loaded and settled: its main heading shown and its data fetched. */
async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${stack.url}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.getByRole('status', { name: 'Loading' }).waitFor({ state: 'detached' });
}

/** The page's serious and critical violations in `theme`. */
async function violationsIn(page: Page, theme: 'light' | 'dark'): Promise<AxeViolation[]> {
  await page.emulateMedia({ colorScheme: theme });
  return seriousAxeViolations(page);
}

const themes = ['light', 'dark'] as const;

describe('every public screen', () => {
  it.each(
    themes.flatMap((theme) => [
      { path: '/auth', heading: /./, theme },
      { path: '/login?tab=register', heading: /./, theme },
      { path: '/forgot-password', heading: 'Forgot your password?', theme },
      { path: '/reset-password?token=not-a-real-token', heading: /password/i, theme },
      { path: '/no-such-page', heading: '404 Page Not Found', theme },
    ]),
  )(
    'should have no serious or critical axe violation on $path in the $theme theme',
    async ({ path, heading, theme }) => {
      const page = await visitor(theme);
      await open(page, path, heading);
      expect(await violationsIn(page, theme)).toEqual([]);
    },
  );
});

describe('every signed-in screen', () => {
  it.each(
    themes.flatMap((theme) => [
      { path: '/dashboard', heading: /Welcome, /, theme },
      { path: '/models', heading: 'Custom AI Models', theme },
      { path: '/credits', heading: 'Buy Credits', theme },
      { path: '/create', heading: 'Create Studio Quality Photos', theme },
      { path: '/gallery', heading: 'Your Avatar Gallery', theme },
      { path: '/profile', heading: 'Profile Settings', theme },
      { path: '/profile?tab=billing', heading: 'Profile Settings', theme },
      { path: '/profile?tab=security', heading: 'Profile Settings', theme },
      { path: '/profile?tab=help', heading: 'Profile Settings', theme },
      { path: '/plans', heading: /./, theme },
      { path: '/admin', heading: 'Access Denied', theme },
    ]),
  )(
    'should have no serious or critical axe violation on $path for a new user in the $theme theme',
    async ({ path, heading, theme }) => {
      await open(user, path, heading);
      expect(await violationsIn(user, theme)).toEqual([]);
    },
  );

  it.each(themes)('should have none on a checkout in the %s theme', async (theme) => {
    const [firstPackage] = (await (await user.request.get(`${stack.url}/api/credit-packages`)).json()) as {
      id: string;
    }[];
    await open(user, `/checkout/${firstPackage!.id}`, /./);
    await user.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
    expect(await violationsIn(user, theme)).toEqual([]);
  });

  it.each(themes)('should have none on the admin dashboard in the %s theme', async (theme) => {
    await open(admin, '/admin', 'Admin Dashboard');
    expect(await violationsIn(admin, theme)).toEqual([]);
  });
});
