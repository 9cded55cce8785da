import { describe, expect, it } from 'vitest';
import { selectionGuidance } from './training-selection';

describe(selectionGuidance.name, () => {
  it.each([
    [0, 'Select 12 more images (need 12-20 total)'],
    [5, 'Select 7 more images (need 12-20 total)'],
    [11, 'Select 1 more image (need 12-20 total)'],
    [12, 'Perfect! 12 images selected for optimal training'],
    [20, 'Perfect! 20 images selected for optimal training'],
    [21, 'Remove 1 image (maximum 20 allowed)'],
    [25, 'Remove 5 images (maximum 20 allowed)'],
  ])('should guide %i selected images', (count, text) => {
    expect(selectionGuidance(count)).toBe(text);
  });
});
