import { describe, expect, it } from 'vitest';
import { makeAvatar } from '@/test/media-fixtures';
import { sortNewestFirst } from './sort-avatars';

describe(sortNewestFirst.name, () => {
  it('should put the newest first and missing or unreadable dates last, higher ids first among equals', () => {
    const avatars = [
      makeAvatar(1, { createdAt: '2025-06-01T10:00:00.000Z' }),
      makeAvatar(2, { createdAt: null }),
      makeAvatar(3, { createdAt: '2025-06-03T10:00:00.000Z' }),
      makeAvatar(4, { createdAt: 'not a date' }),
      makeAvatar(5, { createdAt: '2025-06-01T10:00:00.000Z' }),
    ];

    expect(sortNewestFirst(avatars).map(({ id }) => id)).toEqual([3, 5, 1, 4, 2]);
    expect(avatars.map(({ id }) => id)).toEqual([1, 2, 3, 4, 5]);
  });
});
