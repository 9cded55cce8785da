import { describe, expect, it } from 'vitest';
import { wrapIndex } from './wrap-index';

describe(wrapIndex.name, () => {
  it('should move to the next and previous scene inside the list', () => {
    expect(wrapIndex(1, 1, 5)).toBe(2);
    expect(wrapIndex(3, -1, 5)).toBe(2);
  });

  it('should wrap from the last scene to the first and from the first to the last', () => {
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(0, -1, 5)).toBe(4);
  });

  it('should stay at 0 when there is nothing to browse', () => {
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });
});
