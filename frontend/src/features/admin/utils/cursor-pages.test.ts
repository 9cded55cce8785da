import { describe, expect, it } from 'vitest';
import { currentCursor, FIRST_PAGE, hasPreviousPage, nextPage, pageNumber, previousPage } from './cursor-pages';

describe('cursor pages', () => {
  it('should start on page 1 with no cursor and nothing before it', () => {
    expect(currentCursor(FIRST_PAGE)).toBeUndefined();
    expect(pageNumber(FIRST_PAGE)).toBe(1);
    expect(hasPreviousPage(FIRST_PAGE)).toBe(false);
  });

  it('should go forward with each page’s next cursor and back through the same cursors', () => {
    const second = nextPage(FIRST_PAGE, 'c2');
    const third = nextPage(second, 'c3');

    expect(currentCursor(third)).toBe('c3');
    expect(pageNumber(third)).toBe(3);
    expect(hasPreviousPage(third)).toBe(true);

    const backToSecond = previousPage(third);
    expect(currentCursor(backToSecond)).toBe('c2');
    expect(pageNumber(backToSecond)).toBe(2);
    const backToFirst = previousPage(backToSecond);
    expect(currentCursor(backToFirst)).toBeUndefined();
    expect(pageNumber(backToFirst)).toBe(1);
  });

  it('should stay on the last page when the server gave no next cursor', () => {
    const second = nextPage(FIRST_PAGE, 'c2');
    expect(nextPage(second, null)).toBe(second);
  });

  it('should stay on the first page when asked for the one before it', () => {
    expect(previousPage(FIRST_PAGE)).toBe(FIRST_PAGE);
  });

  it('should not change the stack it was given', () => {
    const second = nextPage(FIRST_PAGE, 'c2');
    nextPage(second, 'c3');
    previousPage(second);

    expect(second).toEqual([undefined, 'c2']);
    expect(FIRST_PAGE).toEqual([undefined]);
  });
});
