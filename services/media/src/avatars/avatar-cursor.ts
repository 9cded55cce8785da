import { INVALID_AVATARS_CURSOR } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { z } from 'zod';

/** Where a page ended: the last avatar's date (null sorts last) and id, and the filter it was read with. */
export interface AvatarPosition {
  createdAt: string | null;
  id: number;
}

const cursorSchema = z.tuple([z.iso.datetime().nullable(), z.number().int().positive(), z.boolean()]);

export function encodeAvatarCursor(position: AvatarPosition, favourites: boolean): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id, favourites])).toString('base64url');
}

/** The position a cursor names; a cursor of another filter, or not one of ours, is refused in a user's words. */
export function decodeAvatarCursor(cursor: string, favourites: boolean): AvatarPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success || result.data[2] !== favourites) {
    throw new DomainError('COMMON.VALIDATION_FAILED', INVALID_AVATARS_CURSOR, [
      { path: 'cursor', message: INVALID_AVATARS_CURSOR },
    ]);
  }
  return { createdAt: result.data[0], id: result.data[1] };
}

/**
 * The rows after a position in the gallery's order (newest first, undated last, then by id
 * down), as a condition on `created_at` and `id` with its parameters numbered from `first`.
 */
export function afterPosition(position: AvatarPosition, first: number): { sql: string; params: unknown[] } {
  if (position.createdAt === null) {
    return { sql: `(created_at IS NULL AND id < $${first})`, params: [position.id] };
  }
  return {
    sql: `(created_at < $${first}::timestamptz OR (created_at = $${first}::timestamptz AND id < $${first + 1}) OR created_at IS NULL)`,
    params: [position.createdAt, position.id],
  };
}
