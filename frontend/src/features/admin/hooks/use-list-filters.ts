import { useState } from 'react';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import type { SortOrder } from '../components/list-controls';
import { useCursorPages } from './use-cursor-pages';

/** How long the search box waits after the last key before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * An admin table's search (debounced), sort and extra filters, and its cursor pages, which start
 * again from the first page whenever the question changes.
 */
export function useListFilters<TFilters extends Record<string, string | undefined>>(initialFilters: TFilters) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortOrder>('newest');
  const [filters, setFilters] = useState(initialFilters);
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS) || undefined;
  const pages = useCursorPages(JSON.stringify([q, sort, filters]));
  return {
    search,
    setSearch,
    sort,
    setSort,
    filters,
    setFilter: <TName extends keyof TFilters>(name: TName, value: TFilters[TName]) =>
      setFilters((current) => ({ ...current, [name]: value })),
    /** What to ask the server for: the settled search, the sort, the filters and the page's cursor. */
    request: { q, sort, cursor: pages.cursor, ...filters },
    filtered: q !== undefined || Object.values(filters).some((value) => value !== undefined),
    pages,
  };
}
