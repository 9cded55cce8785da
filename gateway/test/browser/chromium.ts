import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@likeness/testing';
import { type Browser, type Page, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); never a downloaded browser. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Flags a root user on a closed network needs (see ENVIRONMENT.md). */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Where browser tests leave their screenshots for people to look at. */
export const SCREENSHOTS = join(ROOT, 'test-results/browser');

/** What the SPA stores once its onboarding tour is completed or skipped (SPEC §3). */
export const ONBOARDING_COMPLETED_KEY = 'onboarding_completed';
/** What the SPA stores once the install card is dismissed (SPEC §3). */
const INSTALL_DISMISSED_KEY = 'pwa-install-dismissed';

/**
 * Debian's Chromium. Its pages belong to a returning user who has seen the onboarding tour
 * (it would open over any dashboard a test stays on for 2 s) and dismissed the install card
 * (Chromium may offer installation during a long test); `{ newUser: true }` keeps both for the
 * tests about them.
 */
export async function launchChromium({ newUser = false }: { newUser?: boolean } = {}): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  if (newUser) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(
      (keys) => keys.forEach((key) => window.localStorage.setItem(key, 'true')),
      [ONBOARDING_COMPLETED_KEY, INSTALL_DISMISSED_KEY],
    );
    return context;
  };
  return browser;
}

/** A new visitor who registers through the SPA and lands on the dashboard with 5 credits. */
export async function registerThroughSpa(
  browser: Browser,
  url: string,
  username: string,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const page = await (await browser.newContext({ viewport, acceptDownloads: true })).newPage();
  await page.goto(`${url}/auth?tab=register`);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse');
  await page.getByLabel('Confirm Password').fill('correct-horse');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { level: 1, name: `Welcome, ${username}!` }).waitFor();
  return page;
}
