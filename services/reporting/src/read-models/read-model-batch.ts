import { queryRows, readModelMetrics } from '@likeness/nest-kit';
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

/** An advisory lock of the transaction: shared, or exclusive. */
interface Lock {
  key: string;
  exclusive: boolean;
}

const userLock = (userId: number, exclusive = false): Lock => ({ key: `reporting:user:${userId}`, exclusive });

/**
 * The changes of one transaction to the read models (one event's, a batch of events', or a
 * snapshot page's). Each row is changed under an advisory lock of its own (taken in a fixed
 * order: the user first, then the row), and the counters are moved once, at `flush`, so a
 * transaction that waits for a row never holds the counters' rows. Locks stay until the
 * transaction ends, so each is taken once per transaction, and so is the look at a user's
 * tombstone (an erasure, which writes it, waits for the user's shared lock).
 */
export class ReadModelBatch {
  private readonly totals = new Map<TotalsColumn, number>();
  private readonly days = new Map<string, Map<DailyColumn, number>>();
  private lastEventAt: string | null = null;
  /** The events applied, for the lag metric once they are in. */
  private readonly applied: { type: string; occurredAt: string }[] = [];
  private readonly held = new Map<string, boolean>();
  private readonly erased = new Map<number, boolean>();

  constructor(readonly manager: EntityManager) {}

  /** Shared: changes of one user's rows wait for that user's erasure, which takes it exclusively. */
  async lockUser(userId: number, exclusive = false): Promise<void> {
    await this.lock(userLock(userId, exclusive));
  }

  /** The erasure of the user, written in this transaction (under the user's exclusive lock). */
  erasing(userId: number): void {
    this.erased.set(userId, true);
  }

  /**
   * Changes one row to what `merge` makes of it (undefined: no row), moving the counters by the
   * difference. With an `owner`, only while that user is not erased (their data is not brought
   * back): the user's shared lock and the row's are taken in one statement, and the tombstone is
   * looked at with the row (in the next statement, so it sees what committed while it waited).
   */
  async apply<R extends Row>(
    projection: Projection<R>,
    id: string | number,
    merge: (current: R | undefined) => R | undefined,
    owner?: number,
  ): Promise<void> {
    const { table, key, columns } = projection;
    const rowLock = { key: `reporting:${table}:${id}`, exclusive: true };
    if (owner === undefined) await this.lock(rowLock);
    else await this.lock(userLock(owner), rowLock);
    if (owner !== undefined && this.erased.get(owner)) return;

    const selected = columns.map((column) => `t."${column}"`).join(', ');
    const checkErased = owner !== undefined && !this.erased.has(owner);
    const [found] = await queryRows<Record<string, unknown> & { erased?: boolean }>(
      this.manager,
      checkErased
        ? `SELECT EXISTS (SELECT 1 FROM reporting.deleted_users WHERE user_id = $2) AS erased, ${selected}
           FROM (SELECT 1) AS one LEFT JOIN reporting."${table}" AS t ON t."${key}" = $1`
        : `SELECT ${selected} FROM reporting."${table}" AS t WHERE t."${key}" = $1`,
      checkErased ? [id, owner] : [id],
    );
    if (checkErased) {
      this.erased.set(owner, found?.erased === true);
      if (found?.erased) return;
    }
    const current = found && found[key] !== null ? (normalise(found, columns) as R) : undefined;
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

  /** Takes the locks this transaction does not hold yet, in the order given, in one statement. */
  private async lock(...locks: Lock[]): Promise<void> {
    const needed = locks.filter(({ key, exclusive }) => {
      const held = this.held.get(key);
      return held === undefined || (exclusive && !held);
    });
    if (needed.length === 0) return;
    // A select list is evaluated left to right: the locks are taken in the order given.
    const calls = needed.map(
      ({ exclusive }, index) =>
        `${exclusive ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}(hashtext($${index + 1}))`,
    );
    await this.manager.query(
      `SELECT ${calls.join(', ')}`,
      needed.map(({ key }) => key),
    );
    for (const { key, exclusive } of needed) this.held.set(key, exclusive || (this.held.get(key) ?? false));
  }

  /** An event applied: the newest one is the summary's lastEventAt; each one's lag is measured at `flush`. */
  seen(event: { type: string; occurredAt: string }): void {
    const at = iso(event.occurredAt);
    if (!this.lastEventAt || at > this.lastEventAt) this.lastEventAt = at;
    this.applied.push({ type: event.type, occurredAt: at });
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
    const now = Date.now();
    for (const { type, occurredAt } of this.applied.splice(0)) {
      readModelMetrics.lag.observe({ type }, Math.max(0, (now - Date.parse(occurredAt)) / 1000));
    }
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
