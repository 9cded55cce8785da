import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** axe-core's browser build, injected into the page under test. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Impacts a screen may not have: a serious or critical violation blocks someone from using it. */
const BLOCKING = new Set(['serious', 'critical']);

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** The serious and critical WCAG 2.x A/AA violations on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await animationsSettled(page);
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }).axe.run(
        document,
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } },
      ) as Promise<AxeResult>,
  );
  return result.violations
    .filter((violation) => violation.impact !== null && BLOCKING.has(violation.impact))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/**
 * Waits for the finite animations running now (a screen fading in) to end: halfway through a
 * fade, text is measured against a paler background and fails its contrast. Endless ones (a
 * spinner, a pulsing placeholder) are left running.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 5_000 },
  );
}
