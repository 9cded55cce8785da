import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium } from './chromium.js';

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

async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

describe('accounts in the browser', () => {
  it('should register, land on the dashboard greeting, stay signed in across a reload and log out', async () => {
    const page = await newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      // The signed-out session check answers 401 by design; anything else is a defect (a CSP block, say).
      if (message.type() === 'error' && !message.text().includes('401')) consoleErrors.push(message.text());
    });
    await page.goto(`${stack.url}/dashboard`);
    // A visitor is sent to the auth screen.
    await page.waitForURL('**/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username', { exact: true }).fill('browser_bea');
    await page.getByLabel('Email', { exact: true }).fill('bea@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct-horse');
    await page.getByLabel('Confirm Password').fill('correct-horse');
    await page.getByRole('button', { name: 'Create Account' }).click();

    const greeting = page.getByRole('heading', { level: 1, name: 'Welcome, browser_bea!' });
    await greeting.waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // The toast's code is fetched as the registration starts; the toast may show a moment after the greeting.
    await page.getByText('Registration successful', { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-after-register.png') });

    // The session lives in httpOnly cookies the page's scripts cannot read.
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite]).sort()).toEqual([
      ['likeness_access', true, 'Strict'],
      ['likeness_refresh', true, 'Strict'],
    ]);
    await expect(page.evaluate(() => document.cookie)).resolves.toBe('');

    await page.reload();
    await greeting.waitFor();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/auth');
    await page.getByText('Logged out', { exact: true }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(consoleErrors).toEqual([]);
  });

  it('should log in with the e-mail address on a phone-sized screen', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Username or Email').fill('bea@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct-horse');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome, browser_bea!' }).waitFor();
    await page.getByText('Login successful', { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-phone.png') });
  });

  it('should show the server’s reason when a login fails, and the SPEC messages before sending', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/auth`);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();

    await page.getByLabel('Username or Email').fill('browser_bea');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Login failed', { exact: true }).waitFor();
    await page.getByText('Invalid username or password.', { exact: true }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
  });

  it('should show the 404 screen for an unknown page', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/no-such-page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
  });
});
