import type { EntityManager } from 'typeorm';
import { queryRows } from './query-rows.js';

/**
 * One page of a snapshot RPC: `select` must read rows with an id after `$1` (null: from the
 * start) in id order, at most `$2` of them. A full page names its last id as where the next
 * page starts; a short one ends the snapshot.
 */
export async function snapshotPage<R, T, I>(
  manager: EntityManager,
  request: { afterId?: I | undefined; limit: number },
  select: string,
  toItem: (row: R) => T,
  idOf: (item: T) => I,
): Promise<{ items: T[]; nextAfterId: I | null }> {
  const rows = await queryRows<R>(manager, select, [request.afterId ?? null, request.limit]);
  const items = rows.map(toItem);
  const last = items.at(-1);
  return { items, nextAfterId: items.length === request.limit && last !== undefined ? idOf(last) : null };
}
