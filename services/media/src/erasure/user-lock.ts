import { DomainError } from '@likeness/nest-kit';
import type { EntityManager } from 'typeorm';

export const ACCOUNT_ERASED = 'That account no longer exists.';

/**
 * Serialises the writes that add a person's rows (an upload, a generated image) with the erasure
 * of their account, in the caller's transaction: an addition either commits before the erasure
 * (which then deletes it) or sees the tombstone and is refused.
 */
export async function lockUserMedia(manager: EntityManager, userId: number): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext('media.user'), $1)`, [userId]);
}

export async function isErased(manager: EntityManager, userId: number): Promise<boolean> {
  const rows: unknown[] = await manager.query(`SELECT 1 FROM media.erased_users WHERE user_id = $1`, [userId]);
  return rows.length > 0;
}

/** Refuses to store anything more for a deleted user; call after `lockUserMedia`. */
export async function assertNotErased(manager: EntityManager, userId: number): Promise<void> {
  if (await isErased(manager, userId)) throw new DomainError('COMMON.NOT_FOUND', ACCOUNT_ERASED);
}
