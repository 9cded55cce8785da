import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '@likeness/testing';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';

/** Screenshots a layout is compared against, kept in the repository. */
export const BASELINES = join(ROOT, 'gateway/test/browser/baselines');
/** Where a failed comparison leaves the new screenshot and the difference, for a person to look at. */
const DIFFS = join(ROOT, 'test-results/browser/baseline-diffs');

/** `UPDATE_BASELINES=1` writes the screenshots as the new baselines instead of comparing. */
const UPDATING = process.env['UPDATE_BASELINES'] === '1';

export interface BaselineOptions {
  /**
   * A pixel counts as different when one channel moves by more than this (0-255). Font
   * antialiasing and subpixel rendering differ between machines by a few levels at glyph edges;
   * a layout change moves whole blocks by far more.
   */
  channelTolerance?: number;
  /** The share of pixels that may differ (0-1): room for antialiasing along every glyph edge. */
  maxDiffRatio?: number;
  /** Pixels blurred away before comparing (a radius of 1 hides one-pixel glyph shifts). */
  blur?: number;
}

/** Pixels a screenshot's width or height may differ from its baseline's (font metrics differ slightly between machines). */
const SIZE_SLACK = 2;

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function raw(png: Buffer, blur: number): Promise<Raw> {
  const image = sharp(png).removeAlpha();
  const { data, info } = await (blur > 0 ? image.blur(1 + blur) : image).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The share of pixels that differ by more than `tolerance` in some channel, and a mask of them. */
export async function compareImages(
  actual: Buffer,
  expected: Buffer,
  { channelTolerance = 48, blur = 1 }: BaselineOptions = {},
): Promise<{ sizeMatches: boolean; ratio: number; mask: Buffer | null }> {
  const [a, b] = await Promise.all([raw(actual, blur), raw(expected, blur)]);
  // A line of text one pixel taller on another machine is not a layout change; more than that is.
  if (Math.abs(a.width - b.width) > SIZE_SLACK || Math.abs(a.height - b.height) > SIZE_SLACK) {
    return { sizeMatches: false, ratio: 1, mask: null };
  }
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const pixels = width * height;
  const mask = Buffer.alloc(pixels);
  let different = 0;
  for (let pixel = 0; pixel < pixels; pixel += 1) {
    const x = pixel % width;
    const y = Math.floor(pixel / width);
    const atA = (y * a.width + x) * 3;
    const atB = (y * b.width + x) * 3;
    const moved = Math.max(
      Math.abs(a.data[atA]! - b.data[atB]!),
      Math.abs(a.data[atA + 1]! - b.data[atB + 1]!),
      Math.abs(a.data[atA + 2]! - b.data[atB + 2]!),
    );
    if (moved > channelTolerance) {
      different += 1;
      mask[pixel] = 255;
    }
  }
  const png = await sharp(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return { sizeMatches: true, ratio: different / pixels, mask: png };
}

/**
 * Compares a screenshot of `target` with `baselines/<name>.png`, within a tolerance, and throws
 * saying how far it is off (the new screenshot and a mask of what moved go to
 * test-results/browser/baseline-diffs/). A missing baseline, or `UPDATE_BASELINES=1`, writes it.
 * Animations are stopped and the caret hidden so two runs of one layout draw the same pixels.
 */
export async function expectMatchesBaseline(
  target: Page | Locator,
  name: string,
  options: BaselineOptions = {},
): Promise<void> {
  const shot = await target.screenshot({ animations: 'disabled', caret: 'hide' });
  const file = join(BASELINES, `${name}.png`);
  if (UPDATING || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, shot);
    return;
  }
  const { sizeMatches, ratio, mask } = await compareImages(shot, await sharp(file).png().toBuffer(), options);
  const allowed = options.maxDiffRatio ?? 0.01;
  if (sizeMatches && ratio <= allowed) return;
  mkdirSync(DIFFS, { recursive: true });
  writeFileSync(join(DIFFS, `${name}.actual.png`), shot);
  if (mask) writeFileSync(join(DIFFS, `${name}.diff.png`), mask);
  const expectedSize = await sharp(file).metadata();
  const actualSize = await sharp(shot).metadata();
  throw new Error(
    sizeMatches
      ? `${name}: ${(ratio * 100).toFixed(2)}% of pixels differ from the baseline (at most ${(allowed * 100).toFixed(2)}% may); see ${DIFFS}`
      : `${name}: the screenshot is ${actualSize.width}×${actualSize.height}, the baseline ${expectedSize.width}×${expectedSize.height}; see ${DIFFS}`,
  );
}
