import type { Avatar, CurrentUser } from '@likeness/contracts';
import { useQuery } from '@tanstack/react-query';
import { avatarsQueryOptions } from './get-avatars';

/** A signed-in user's `count` newest avatars (the server lists newest first); none for a visitor. */
export function useRecentAvatars(user: CurrentUser | null, count: number): Avatar[] {
  const avatars = useQuery({
    ...avatarsQueryOptions(count),
    select: (page) => page.items,
    enabled: user !== null,
  });
  return user ? (avatars.data ?? []).slice(0, count) : [];
}
