import { avatarSchema, type Avatar } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { sortNewestFirst } from './sort-avatars';

export const AVATARS_PATH = '/api/avatars';

/**
 * The listed image URLs are signed and expire (an hour by default): a list older than this is
 * fetched again when a screen showing it mounts, instead of never going stale.
 */
const SIGNED_URL_REFRESH_MS = 5 * 60 * 1000;

const avatarsSchema = z.array(avatarSchema);

/** GET /api/avatars: the user's avatars (the server sends them newest first). */
export function getAvatars({ signal }: { signal?: AbortSignal } = {}): Promise<Avatar[]> {
  return apiRequest('GET', AVATARS_PATH, { schema: avatarsSchema, signal });
}

export function avatarsQueryOptions() {
  return queryOptions({
    queryKey: [AVATARS_PATH],
    queryFn: getAvatars,
    staleTime: SIGNED_URL_REFRESH_MS,
  });
}

/** The avatars newest first, undated ones last (SPEC §3), whatever order they arrived in. */
export function useAvatars() {
  return useQuery({ ...avatarsQueryOptions(), select: sortNewestFirst });
}
