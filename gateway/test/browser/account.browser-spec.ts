import { join } from 'node:path';
import { readDevMailbox, waitFor } from '@likeness/testing';
import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

const SUPPORT_EMAIL = 'help@likeness.test';
const PASSWORD = 'correct-horse';

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startTestStack({ SUPPORT_EMAIL });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.shutdown();
});

async function newPage(width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

/** The reset link the dev mailbox holds for an address, as a path on the stack under test. */
async function resetLinkFor(email: string): Promise<string> {
  const link = await waitFor(
    async () => {
      const mails = await readDevMailbox(stack.env['DATA_DIR']!);
      const links = mails
        .filter((mail) => mail.to.includes(email))
        .map((mail) => mail.text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)?.[0])
        .filter((found): found is string => found !== undefined);
      return links.at(-1);
    },
    { timeoutMs: 20_000, what: `a reset mail to ${email}` },
  );
  const { pathname, search } = new URL(link);
  return `${stack.url}${pathname}${search}`;
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

describe('the account in the browser', () => {
  it('should reset a forgotten password from the e-mailed link, log in with the new one, and refuse the link again', async () => {
    // The account exists; its owner forgets the password in another browser.
    await registerThroughSpa(browser, stack.url, 'reset_rita');
    const page = await newPage();
    await page.goto(`${stack.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill('reset_rita@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    await page
      .getByText("If an account with that email exists, you'll receive a password reset link shortly")
      .first()
      .waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'forgot-password-sent.png') });

    const link = await resetLinkFor('reset_rita@example.com');
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-horse');
    await page.getByLabel('Confirm New Password').fill('brand-new-horse');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Password reset' }).waitFor();
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.waitForURL('**/auth');

    await logIn(page, 'reset_rita', PASSWORD);
    await page.getByText('Login failed', { exact: true }).waitFor();
    await logIn(page, 'reset_rita', 'brand-new-horse');
    await page.getByRole('heading', { level: 1, name: 'Welcome, reset_rita!' }).waitFor();

    // The link worked once.
    const again = await newPage();
    await again.goto(link);
    await again.getByLabel('New Password', { exact: true }).fill('third-horse');
    await again.getByLabel('Confirm New Password').fill('third-horse');
    await again.getByRole('button', { name: 'Reset Password' }).click();
    await again.getByRole('heading', { level: 1, name: "This link can't be used" }).waitFor();
    await again.getByRole('link', { name: 'Request a New Link' }).click();
    await again.waitForURL('**/forgot-password');
  });

  it('should send a reset link without a token to the auth screen with "Invalid reset link"', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/reset-password`);
    await page.waitForURL('**/auth');
    await page.getByText('Invalid reset link', { exact: true }).waitFor();
  });

  it('should open the profile’s tabs, keep the tab in the address and lead from Billing to the plans', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'profile_pia');
    await page.getByRole('link', { name: 'Need Help?' }).click();
    await page.waitForURL('**/profile?tab=help');
    await page.getByRole('tab', { name: 'Help & Support', selected: true }).waitFor();
    const contact = page.getByRole('link', { name: 'Contact Support' });
    await contact.waitFor();
    expect(await contact.getAttribute('href')).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?`));

    await page.getByRole('tab', { name: 'Account' }).click();
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByLabel('Username').inputValue()).toBe('profile_pia');
    expect(await page.getByLabel('Email').inputValue()).toBe('profile_pia@example.com');

    await page.getByRole('tab', { name: 'Billing' }).click();
    expect(new URL(page.url()).search).toBe('?tab=billing');
    const history = page.getByRole('list', { name: 'Credit history, newest first' });
    await history.getByText('+5', { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-billing.png') });

    // The tab survives a reload, from the address.
    await page.reload();
    await page.getByRole('tab', { name: 'Billing', selected: true }).waitFor();

    await page.getByRole('link', { name: 'Buy More Credits' }).click();
    await page.waitForURL('**/plans');
    await page.getByRole('heading', { level: 2, name: 'Creator Pack' }).waitFor();
    await page.getByRole('link', { name: 'Buy Credits: Creator Pack' }).click();
    await page.waitForURL('**/checkout/**');
    await page.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();

    // The account menu leads to the profile too, at phone width as well.
    const phone = await registerThroughSpa(browser, stack.url, 'phone_pete', { width: 390, height: 844 });
    await phone.getByRole('button', { name: 'Account menu' }).click();
    await phone.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Profile Settings' }).waitFor();
    await phone.screenshot({ path: join(SCREENSHOTS, 'profile-phone.png') });
  });

  it('should change the password, keep this session and sign in only with the new password', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'secure_sam');
    await page.goto(`${stack.url}/profile?tab=security`);
    await page.getByLabel('Current Password').fill('not-my-password');
    await page.getByLabel('New Password', { exact: true }).fill('stronger-horse');
    await page.getByLabel('Confirm New Password').fill('stronger-horse');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Current password is incorrect').first().waitFor();

    await page.getByLabel('Current Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password updated', { exact: true }).waitFor();
    expect(await page.getByLabel('Current Password').inputValue()).toBe('');

    // This browser stays signed in.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Profile Settings' }).waitFor();

    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Logged out', { exact: true }).waitFor();
    await logIn(page, 'secure_sam', PASSWORD);
    await page.getByText('Login failed', { exact: true }).waitFor();
    await logIn(page, 'secure_sam', 'stronger-horse');
    await page.getByRole('heading', { level: 1, name: 'Welcome, secure_sam!' }).waitFor();
  });

  it('should delete the account after asking for the password, and end signed out with the name free again', async () => {
    const page = await registerThroughSpa(browser, stack.url, 'delete_dora');
    await page.goto(`${stack.url}/profile`);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByText('Password is incorrect').waitFor();

    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByText('Account deleted', { exact: true }).waitFor();
    // The landing page, signed out.
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('button', { name: 'Account menu' }).count()).toBe(0);
    const sessionCookies = (await page.context().cookies()).filter((cookie) =>
      ['likeness_access', 'likeness_refresh'].includes(cookie.name),
    );
    expect(sessionCookies).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'account-deleted.png') });

    await page.goto(`${stack.url}/dashboard`);
    await page.waitForURL('**/auth');
    await logIn(page, 'delete_dora', PASSWORD);
    await page.getByText('Login failed', { exact: true }).waitFor();

    // The username and the e-mail address are free again: a new account, with new credits.
    const again = await registerThroughSpa(browser, stack.url, 'delete_dora');
    await again.getByRole('link', { name: '5 credits: buy credits' }).waitFor();
  });
});
