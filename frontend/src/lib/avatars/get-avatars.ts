import { avatarsPageSchema, type Avatar, type AvatarsPage } from '@likeness/contracts';
import { type InfiniteData, infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { sortNewestFirst } from './sort-avatars';

export const AVATARS_PATH = '/api/avatars';
/** Every cached list of avatars starts with this key: invalidating it refreshes them all. */
export const AVATARS_QUERY_KEY = ['avatars'] as const;
/** Avatars a first page holds unless a screen asks for another number. */
export const FIRST_PAGE_SIZE = 24;

export interface AvatarsPageRequest {
  limit?: number;
  cursor?: string | null;
  favourites?: boolean;
  signal?: AbortSignal;
}

/** GET /api/avatars: one page of the user's avatars, newest first (undated last), and how many there are. */
export function getAvatarsPage({ limit, cursor, favourites, signal }: AvatarsPageRequest = {}): Promise<AvatarsPage> {
  const query = new URLSearchParams();
  if (limit !== undefined) query.set('limit', String(limit));
  if (cursor) query.set('cursor', cursor);
  if (favourites) query.set('favourites', 'true');
  const search = query.toString();
  return apiRequest('GET', search ? `${AVATARS_PATH}?${search}` : AVATARS_PATH, { schema: avatarsPageSchema, signal });
}

/** The newest `limit` avatars and the total: what the dashboard and the create page show. */
export function avatarsQueryOptions(limit = FIRST_PAGE_SIZE) {
  return queryOptions({
    queryKey: [...AVATARS_QUERY_KEY, 'first', limit],
    queryFn: ({ signal }) => getAvatarsPage({ limit, signal }),
    // Avatars arrive from elsewhere, and the listed image URLs are signed and expire.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** Every avatar, or the starred ones, page after page as the gallery scrolls. */
export function avatarPagesQueryOptions({ favourites = false }: { favourites?: boolean } = {}) {
  return infiniteQueryOptions({
    queryKey: [...AVATARS_QUERY_KEY, 'pages', { favourites }],
    queryFn: ({ pageParam, signal }) => getAvatarsPage({ cursor: pageParam, favourites, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** The newest avatars, newest first, undated ones last (SPEC §3), whatever order they arrived in. */
export function useAvatars(limit = FIRST_PAGE_SIZE) {
  return useQuery({ ...avatarsQueryOptions(limit), select: (page) => sortNewestFirst(page.items) });
}

type CachedAvatars = AvatarsPage | InfiniteData<AvatarsPage>;

/**
 * Changes every cached list of avatars at once (first pages and scrolled pages alike), e.g. to
 * drop deleted ones or mark a star before the server's lists come back.
 */
export function mapCachedAvatars(
  cached: CachedAvatars | undefined,
  change: (avatars: Avatar[]) => Avatar[],
): CachedAvatars | undefined {
  if (!cached) return cached;
  const mapPage = (page: AvatarsPage): AvatarsPage => {
    const items = change(page.items);
    return { ...page, items, total: Math.max(0, page.total - (page.items.length - items.length)) };
  };
  return 'pages' in cached ? { ...cached, pages: cached.pages.map(mapPage) } : mapPage(cached);
}
