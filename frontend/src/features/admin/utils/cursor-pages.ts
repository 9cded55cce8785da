/**
 * Where a cursor-paged list is: the cursors that opened each page seen so far, the first page's
 * (none) at the bottom, the page on screen at the top. Next pushes the page's `nextCursor`,
 * Previous pops, so going back needs no cursor from the server.
 */
export type CursorStack = readonly (string | undefined)[];

export const FIRST_PAGE: CursorStack = [undefined];

/** The cursor to ask for the page on screen (undefined: the first page). */
export function currentCursor(stack: CursorStack): string | undefined {
  return stack.at(-1);
}

/** 1 for the first page. */
export function pageNumber(stack: CursorStack): number {
  return Math.max(1, stack.length);
}

export function hasPreviousPage(stack: CursorStack): boolean {
  return stack.length > 1;
}

/** The page after the one on screen; the same stack when the server said there is none. */
export function nextPage(stack: CursorStack, nextCursor: string | null): CursorStack {
  return nextCursor ? [...stack, nextCursor] : stack;
}

/** The page before the one on screen; the first page stays where it is. */
export function previousPage(stack: CursorStack): CursorStack {
  return hasPreviousPage(stack) ? stack.slice(0, -1) : stack;
}
