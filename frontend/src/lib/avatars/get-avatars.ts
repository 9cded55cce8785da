import { avatarSchema, type Avatar } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { sortNewestFirst } from './sort-avatars';

export const AVATARS_PATH = '/api/avatars';

const avatarsSchema = z.array(avatarSchema);

/** GET /api/avatars: the user's avatars (the server sends them newest first). */
export function getAvatars({ signal }: { signal?: AbortSignal } = {}): Promise<Avatar[]> {
  return apiRequest('GET', AVATARS_PATH, { schema: avatarsSchema, signal });
}

export function avatarsQueryOptions() {
  return queryOptions({
    queryKey: [AVATARS_PATH],
    queryFn: getAvatars,
    // Avatars arrive from elsewhere, and the listed image URLs are signed and expire.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** The avatars newest first, undated ones last (SPEC §3), whatever order they arrived in. */
export function useAvatars() {
  return useQuery({ ...avatarsQueryOptions(), select: sortNewestFirst });
}
