import type { Avatar } from '@likeness/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { AVATARS_QUERY_KEY, mapCachedAvatars } from '@/lib/avatars/get-avatars';

/** Takes avatars out of every cached list (first pages and scrolled pages). */
export function forgetAvatars(queryClient: QueryClient, ids: readonly number[]): void {
  const gone = new Set(ids);
  queryClient.setQueriesData({ queryKey: AVATARS_QUERY_KEY }, (cached: Parameters<typeof mapCachedAvatars>[0]) =>
    mapCachedAvatars(cached, (avatars) => avatars.filter((avatar) => !gone.has(avatar.id))),
  );
}

/** Puts the server's copy of an avatar in every cached list that holds it. */
export function rememberAvatar(queryClient: QueryClient, changed: Avatar): void {
  queryClient.setQueriesData({ queryKey: AVATARS_QUERY_KEY }, (cached: Parameters<typeof mapCachedAvatars>[0]) =>
    mapCachedAvatars(cached, (avatars) => avatars.map((avatar) => (avatar.id === changed.id ? changed : avatar))),
  );
}
