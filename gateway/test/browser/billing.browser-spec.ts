import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningStack, startTestStack } from '../system/stack-harness.js';
import { SCREENSHOTS, launchChromium, registerThroughSpa } from './chromium.js';

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

const signedInPage = (username: string) => registerThroughSpa(browser, stack.url, username);

async function choosePackageAndContinue(page: Page, name: string): Promise<void> {
  await page.goto(`${stack.url}/credits`);
  await page.getByRole('heading', { level: 1, name: 'Buy Credits' }).waitFor();
  await page.getByRole('radio', { name }).check();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
  await page.getByText('Test mode — no real card is charged').waitFor();
}

describe('buying credits in the browser', () => {
  it('should buy the Creator Pack with the test card and see the balance rise by 125', async () => {
    const page = await signedInPage('shopper_sam');
    await page.getByRole('link', { name: '5 credits: buy credits' }).waitFor();
    await choosePackageAndContinue(page, 'Creator Pack');
    await page.screenshot({ path: join(SCREENSHOTS, 'complete-purchase.png') });
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $11.00' }).click();

    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/success');
    await page.getByText('Payment confirmed!', { exact: true }).waitFor();
    await page.getByText('125 credits have been added to your account.', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: '130 credits: buy credits' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'payment-successful.png') });

    // The balance is the server's: a reload shows it too.
    await page.reload();
    await page.getByRole('link', { name: '130 credits: buy credits' }).waitFor();
  });

  it('should show the decline and keep the balance when the declined test card is used', async () => {
    const page = await signedInPage('declined_dan');
    await choosePackageAndContinue(page, 'Starter Pack');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await page.getByText('Payment declined', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/credits');
    await page.screenshot({ path: join(SCREENSHOTS, 'payment-declined.png') });
    await page.goto(`${stack.url}/dashboard`);
    await page.getByRole('link', { name: '5 credits: buy credits' }).waitFor();
  });
});
