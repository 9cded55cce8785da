import { queryRows } from '@likeness/nest-kit';
import type { EntityManager } from 'typeorm';

export type TotalsColumn =
  | 'users'
  | 'payments'
  | 'revenue_cents'
  | 'generations_pending'
  | 'generations_completed'
  | 'generations_failed'
  | 'trainings_running'
  | 'trainings_completed'
  | 'trainings_failed'
  | 'credits_outstanding';
export type DailyColumn = 'signups' | 'revenue_cents' | 'generations' | 'failed_jobs';

/** What one row adds to the counters: the summary's totals, and its UTC day's figures. */
export interface Contribution {
  totals: Partial<Record<TotalsColumn, number>>;
  day?: { date: string; counts: Partial<Record<DailyColumn, number>> };
}

/** A value of a read-model row: timestamps travel as ISO strings (milliseconds, UTC). */
export type Value = string | number | null;
export type Row = Record<string, Value>;

/**
 * A read-model table: its columns (row keys are the column names) and what a row adds to the
 * counters. The counters are always the sum of the rows' contributions: every change of a row
 * moves them by (after − before), so applying the same fact twice, or facts in another order,
 * leaves rows and counters the same.
 */
export interface Projection<R extends Row> {
  table: string;
  key: keyof R & string;
  columns: readonly (keyof R & string)[];
  contribution(row: R): Contribution;
}

/** The UTC day of an ISO timestamp. */
export function utcDay(iso: string): string {
  return iso.slice(0, 10);
}

/** Any ISO timestamp as the read models store it. */
export function iso(value: string | Date): string {
  return new Date(value).toISOString();
}

export function earliest(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a <= b ? a : b;
}

/**
 * The changes of one transaction to the read models. Each row is changed under an advisory lock
 * of its own (taken in a fixed order: the user first, then the row), and the counters are moved
 * once, at `flush`, so a transaction that waits for a row never holds the counters' rows.
 */
export class ReadModelBatch {
  private readonly totals = new Map<TotalsColumn, number>();
  private readonly days = new Map<string, Map<DailyColumn, number>>();
  private lastEventAt: string | null = null;

  constructor(readonly manager: EntityManager) {}

  /** Shared: changes of one user's rows wait for that user's erasure, which takes it exclusively. */
  async lockUser(userId: number, exclusive = false): Promise<void> {
    const fn = exclusive ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
    await this.manager.query(`SELECT ${fn}(hashtext($1))`, [`reporting:user:${userId}`]);
  }

  async isErased(userId: number): Promise<boolean> {
    const rows = await queryRows(this.manager, `SELECT 1 FROM reporting.deleted_users WHERE user_id = $1`, [userId]);
    return rows.length > 0;
  }

  /** Changes one row to what `merge` makes of it (undefined: no row), moving the counters by the difference. */
  async apply<R extends Row>(
    projection: Projection<R>,
    id: string | number,
    merge: (current: R | undefined) => R | undefined,
  ): Promise<void> {
    const { table, key, columns } = projection;
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`reporting:${table}:${id}`]);
    const [found] = await queryRows<Record<string, unknown>>(
      this.manager,
      `SELECT ${columns.map((column) => `"${column}"`).join(', ')} FROM reporting."${table}" WHERE "${key}" = $1`,
      [id],
    );
    const current = found ? (normalise(found, columns) as R) : undefined;
    const next = merge(current);
    if (next && current && columns.every((column) => next[column] === current[column])) return;
    if (!next && !current) return;
    if (!next) {
      await this.manager.query(`DELETE FROM reporting."${table}" WHERE "${key}" = $1`, [id]);
    } else {
      const list = columns.map((column) => `"${column}"`).join(', ');
      const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
      const updates = columns
        .filter((column) => column !== key)
        .map((column) => `"${column}" = EXCLUDED."${column}"`)
        .join(', ');
      await this.manager.query(
        `INSERT INTO reporting."${table}" (${list}) VALUES (${placeholders}) ON CONFLICT ("${key}") DO UPDATE SET ${updates}`,
        columns.map((column) => next[column]),
      );
    }
    if (current) this.add(projection.contribution(current), -1);
    if (next) this.add(projection.contribution(next), 1);
  }

  /** The newest event the read models heard of (the summary's lastEventAt). */
  seen(occurredAt: string): void {
    const at = iso(occurredAt);
    if (!this.lastEventAt || at > this.lastEventAt) this.lastEventAt = at;
  }

  async flush(): Promise<void> {
    const totals = [...this.totals].filter(([, delta]) => delta !== 0);
    if (totals.length > 0 || this.lastEventAt) {
      const sets = totals.map(([column], index) => `"${column}" = "${column}" + $${index + 2}`);
      sets.push(`"last_event_at" = GREATEST("last_event_at", $1::timestamptz)`);
      await this.manager.query(`UPDATE reporting.totals SET ${sets.join(', ')} WHERE id = 1`, [
        this.lastEventAt,
        ...totals.map(([, delta]) => delta),
      ]);
    }
    for (const [date, day] of [...this.days].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const counts = [...day].filter(([, delta]) => delta !== 0);
      if (counts.length === 0) continue;
      const columns = counts.map(([column]) => `"${column}"`).join(', ');
      const values = counts.map((_, index) => `$${index + 2}`).join(', ');
      const updates = counts.map(([column]) => `"${column}" = daily_stats."${column}" + EXCLUDED."${column}"`);
      await this.manager.query(
        `INSERT INTO reporting.daily_stats ("day", ${columns}) VALUES ($1, ${values})
         ON CONFLICT ("day") DO UPDATE SET ${updates.join(', ')}`,
        [date, ...counts.map(([, delta]) => delta)],
      );
      // A day whose rows all went (an erased user's) has no row, as a rebuild would leave it.
      if (counts.some(([, delta]) => delta < 0)) {
        await this.manager.query(
          `DELETE FROM reporting.daily_stats
           WHERE "day" = $1 AND signups = 0 AND revenue_cents = 0 AND generations = 0 AND failed_jobs = 0`,
          [date],
        );
      }
    }
    this.totals.clear();
    this.days.clear();
    this.lastEventAt = null;
  }

  private add(contribution: Contribution, sign: 1 | -1): void {
    for (const [column, value] of Object.entries(contribution.totals) as [TotalsColumn, number][]) {
      this.totals.set(column, (this.totals.get(column) ?? 0) + sign * value);
    }
    if (!contribution.day) return;
    const day = this.days.get(contribution.day.date) ?? new Map<DailyColumn, number>();
    for (const [column, value] of Object.entries(contribution.day.counts) as [DailyColumn, number][]) {
      day.set(column, (day.get(column) ?? 0) + sign * value);
    }
    this.days.set(contribution.day.date, day);
  }
}

function normalise(found: Record<string, unknown>, columns: readonly string[]): Row {
  const row: Row = {};
  for (const column of columns) {
    const value = found[column];
    row[column] = value instanceof Date ? value.toISOString() : (value as Value);
  }
  return row;
}
