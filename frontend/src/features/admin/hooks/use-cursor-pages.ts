import { useState } from 'react';
import {
  currentCursor,
  FIRST_PAGE,
  hasPreviousPage,
  nextPage,
  pageNumber,
  previousPage,
  type CursorStack,
} from '../utils/cursor-pages';

/**
 * Next/Previous through a cursor-paged list. `filterKey` names the search, sort and filters the
 * cursors were issued for: when it changes the list starts again from the first page (a cursor
 * is only valid for the question it answered).
 */
export function useCursorPages(filterKey: string) {
  const [pages, setPages] = useState<{ filterKey: string; stack: CursorStack }>({ filterKey, stack: FIRST_PAGE });
  const stack = pages.filterKey === filterKey ? pages.stack : FIRST_PAGE;
  return {
    cursor: currentCursor(stack),
    page: pageNumber(stack),
    hasPrevious: hasPreviousPage(stack),
    next: (nextCursor: string | null) => setPages({ filterKey, stack: nextPage(stack, nextCursor) }),
    previous: () => setPages({ filterKey, stack: previousPage(stack) }),
    reset: () => setPages({ filterKey, stack: FIRST_PAGE }),
  };
}
