import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@likeness/testing';
import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

const ADMIN = { username: 'root_admin', email: 'root_admin@likeness.test', password: 'Sturdy-Harbor-42!' };

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  // The bootstrap makes id 1 the administrator in the stack's fresh database.
  stack = await startTestStack({
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

async function logInAsAdmin(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await (await browser.newContext({ viewport, acceptDownloads: true })).newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Username or Email').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('heading', { level: 1, name: `Welcome, ${ADMIN.username}!` }).waitFor();
  return page;
}

/** The users table lists someone once the reporting read model has the sign-up (an event away). */
async function waitForUserRow(page: Page, username: string): Promise<void> {
  await waitFor(
    async () => {
      await page.getByLabel('Search users').fill(username);
      const row = page.getByRole('table', { name: 'Users, page 1' }).getByRole('button', { name: username });
      try {
        await row.waitFor({ timeout: 1500 });
        return true;
      } catch {
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
        return undefined;
      }
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `${username} in the admin's users table` },
  );
}

describe('the admin dashboard in the browser', () => {
  it('should keep a normal user out: Access Denied on /admin and no Admin link anywhere', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'plain_paula');
    const headerNav = page.getByRole('navigation', { name: 'Main' }).first();
    await headerNav.getByRole('link', { name: 'Home' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto(`${stack.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    await page.getByText("You don't have permission to access the admin area.").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-access-denied.png') });
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome, plain_paula!' }).waitFor();

    // A visitor goes to the auth screen.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${stack.url}/admin`);
    await visitor.waitForURL('**/auth');
  });

  it('should show the administrator the totals and every tab, adjust a user’s credits and export the users', async () => {
    const customer = await registerThroughSpa(browser, stack.url, 'credit_carl');
    await customer.getByRole('link', { name: '5 credits: buy credits' }).waitFor();

    const page = await logInAsAdmin();
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    const totals = page.getByRole('region', { name: 'Totals' });
    for (const card of ['Total Users', 'Revenue', 'Total Generations', 'Credits outstanding']) {
      await totals.getByText(card, { exact: true }).waitFor();
    }
    await page.locator('.recharts-surface').first().waitFor();
    await page.getByRole('button', { name: '90 days' }).click();
    await page.getByRole('button', { name: '90 days', pressed: true }).waitFor();

    await waitForUserRow(page, 'credit_carl');
    await page.getByLabel('Search users').fill('');
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-users.png'), fullPage: true });

    for (const [tab, ready] of [
      ['Payments', 'Search payments'],
      ['Generation Jobs', 'Search jobs'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByLabel(ready).waitFor();
      await page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).waitFor();
    }
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByText('Administrator', { exact: true }).waitFor();
    await page.getByRole('tabpanel').getByText(ADMIN.email).waitFor();
    await page.getByLabel('Current Password').fill(ADMIN.password);
    await page.getByLabel('New Password', { exact: true }).fill('password');
    await page.getByLabel('Confirm New Password').fill('password');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password must be at least 12 characters').waitFor();

    // The user's details, and credits granted with a reason.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByLabel('Search users').fill('credit_carl');
    await page.getByRole('table', { name: 'Users, page 1' }).getByRole('button', { name: 'credit_carl' }).click();
    const dialog = page.getByRole('dialog', { name: 'credit_carl' });
    const balance = dialog.locator('dt', { hasText: /^Balance$/ }).locator('xpath=following-sibling::dd[1]');
    await waitFor(async () => ((await balance.textContent()) === '5' ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the balance of 5 in the user panel',
    });
    await dialog.getByLabel('Credits', { exact: true }).fill('-50');
    await dialog.getByLabel('Reason').fill('Testing a deduction');
    await dialog.getByRole('button', { name: 'Adjust Credits' }).click();
    await dialog.getByText('The user does not have that many credits to deduct').waitFor();

    await dialog.getByLabel('Credits', { exact: true }).fill('20');
    await dialog.getByLabel('Reason').fill('Goodwill for the outage');
    await dialog.getByRole('button', { name: 'Adjust Credits' }).click();
    await page.getByText('Credits adjusted', { exact: true }).waitFor();
    await waitFor(async () => ((await balance.textContent()) === '25' ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the balance of 25 in the user panel',
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-user-panel.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The user sees the new balance, and the adjustment in their history.
    await customer.reload();
    await customer.getByRole('link', { name: '25 credits: buy credits' }).waitFor();
    await customer.goto(`${stack.url}/profile?tab=billing`);
    await customer.getByText('Goodwill for the outage').first().waitFor();

    // The users page as a CSV file.
    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe('likeness-users-page-1.csv');
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    expect(header).toBe('id,username,email,role,credits,createdAt');
    expect(rows).toEqual([expect.stringMatching(/^\d+,credit_carl,credit_carl@example\.com,user,25,\d{4}-/)]);
  });

  it('should reach the dashboard from the account menu on a phone, its tables scrolling sideways', async () => {
    const page = await logInAsAdmin({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    const table = page.getByRole('table', { name: 'Users, page 1' });
    await table.waitFor();
    // The page itself never scrolls sideways; the table's box does.
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-phone.png'), fullPage: true });
  });
});
