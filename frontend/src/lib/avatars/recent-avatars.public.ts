import type { Avatar, AvatarsPage, CurrentUser } from '@likeness/contracts';
import { expectFields, useApiData } from '@/public/use-api-data';

// The public pages' recent avatars (their own bundle, build-tools/public-build.ts): the same GET, checked by hand.

/** GET /api/avatars, as get-avatars.ts asks it in the full app. */
export const AVATARS_PATH = '/api/avatars';

const nullOr = (value: unknown, type: 'string' | 'number') => value === null || typeof value === type;

/** The fields of the contracts' avatarsPageSchema, checked by hand. */
export function checkAvatarsPage(value: unknown): AvatarsPage {
  const page = expectFields(value, { total: 'number' }, 'avatars');
  if (!Array.isArray(page.items)) throw new TypeError('avatars: items should be a list');
  if (!nullOr(page.nextCursor, 'string')) throw new TypeError('avatars: nextCursor should be a string or null');
  for (const item of page.items) {
    const fields = { promptText: 'string', imageUrl: 'string', thumbnailUrl: 'string', shareUrl: 'string' } as const;
    const avatar = expectFields(item, { ...fields, id: 'number', favourite: 'boolean' }, 'avatar');
    if (!nullOr(avatar.customModelId, 'number') || !nullOr(avatar.createdAt, 'string')) {
      throw new TypeError('avatar: customModelId and createdAt should be given, or null');
    }
  }
  return page as unknown as AvatarsPage;
}

/** A signed-in user's `count` newest avatars (the server lists newest first); none for a visitor. */
export function useRecentAvatars(user: CurrentUser | null, count: number): Avatar[] {
  const page = useApiData(user ? `${AVATARS_PATH}?limit=${count}` : null, checkAvatarsPage);
  return user && page.data ? page.data.items.slice(0, count) : [];
}
