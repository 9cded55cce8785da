import { DomainError } from '@likeness/nest-kit';
import { createHash } from 'node:crypto';
import { z } from 'zod';

const INVALID_CURSOR = 'That page link is not valid any more. Start again from the first page.';

/** What a cursor holds: the last row's sort key, and which list (sort and filters) issued it. */
const cursorSchema = z.tuple([z.iso.datetime(), z.union([z.string().max(64), z.number().int()]), z.string()]);

/** A short fingerprint of a list's sort and filters: a cursor of another list is refused. */
function fingerprint(scope: unknown): string {
  return createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 10);
}

export function encodeCursor(createdAt: string, id: string | number, scope: unknown): string {
  return Buffer.from(JSON.stringify([createdAt, id, fingerprint(scope)])).toString('base64url');
}

export function decodeCursor(cursor: string, scope: unknown): { createdAt: string; id: string | number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success || result.data[2] !== fingerprint(scope)) {
    throw new DomainError('COMMON.VALIDATION_FAILED', INVALID_CURSOR, [{ path: 'cursor', message: INVALID_CURSOR }]);
  }
  return { createdAt: result.data[0], id: result.data[1] };
}

/**
 * One keyset page of a list ordered by (created_at, id), newest or oldest first: `where` holds
 * the filters (with `$n` placeholders numbered from 1, `params` their values). Reads one row
 * more than the page to know whether another page follows.
 */
export interface KeysetQuery {
  select: string;
  /** The FROM clause (tables named with their schema). */
  from: string;
  /** The sort columns, e.g. `created_at` and `id`. */
  sortColumn: string;
  idColumn: string;
  where: string[];
  params: unknown[];
  sort: 'newest' | 'oldest';
  limit: number;
  cursor?: string | undefined;
  scope: unknown;
  /** How the id column compares (its type). */
  idCast: string;
}

export function keysetSql(query: KeysetQuery): { sql: string; params: unknown[] } {
  const where = [...query.where];
  const params = [...query.params];
  const direction = query.sort === 'newest' ? 'DESC' : 'ASC';
  if (query.cursor) {
    const { createdAt, id } = decodeCursor(query.cursor, query.scope);
    params.push(createdAt, String(id));
    const comparison = query.sort === 'newest' ? '<' : '>';
    where.push(
      `(${query.sortColumn}, ${query.idColumn}) ${comparison} ($${params.length - 1}::timestamptz, $${params.length}::${query.idCast})`,
    );
  }
  params.push(query.limit + 1);
  const sql =
    `SELECT ${query.select} FROM ${query.from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${query.sortColumn} ${direction}, ${query.idColumn} ${direction} LIMIT $${params.length}`;
  return { sql, params };
}

export function pageOf<R extends { created_at: Date; id: string | number }, T>(
  rows: R[],
  limit: number,
  scope: unknown,
  toItem: (row: R) => T,
): { items: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at.toISOString(), last.id, scope) : null,
  };
}
