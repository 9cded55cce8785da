import type { Avatar } from '@likeness/contracts';

function timeOf(avatar: Avatar): number {
  const time = avatar.createdAt ? Date.parse(avatar.createdAt) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** SPEC §3: newest first by createdAt; a missing (or unreadable) date counts as oldest. Ties: higher id first. */
export function sortNewestFirst(avatars: readonly Avatar[]): Avatar[] {
  return [...avatars].sort((a, b) => timeOf(b) - timeOf(a) || b.id - a.id);
}
