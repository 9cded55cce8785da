import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@likeness/testing';
import { type Browser, chromium } from 'playwright-core';

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

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}
