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
const DAILY_COLUMNS: readonly DailyColumn[] = ['signups', 'revenue_cents', 'generations', 'failed_jobs'];

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

/** A change asked for and not made yet (`apply`). */
interface PendingChange {
  projection: Projection<Row>;
  id: string | number;
  merge: (current: Row | undefined) => Row | undefined;
  owner?: number;
}

/** A row as this transaction found it, and as its changes so far leave it. */
interface RowState {
  projection: Projection<Row>;
  id: string | number;
  found: Row | undefined;
  current: Row | undefined;
}

/** Rows one INSERT writes at most (PostgreSQL takes at most 65,535 parameters). */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The changes of one transaction to the read models (one event's, a batch of events', or a
 * snapshot page's). `apply` only notes a change; `flush` makes them all, a few statements for the
 * whole batch rather than a few per event: every lock the changes need in one statement (the users'
 * shared locks first, in ascending order, then the rows', by table and id: one global order, so two
 * batches never wait for each other in a circle), then the tombstones and the rows of each table
 * in one statement each (after the locks: a statement sees what had committed when it began), the
 * merges in the order the changes were asked for, the changed rows of each table in one statement,
 * and last the counters, once, in one statement (a transaction that waits for a row never holds the
 * counters' rows).
 * Locks stay until the transaction ends, so each is taken once per transaction, and so is the look
 * at a user's tombstone (an erasure, which writes it, waits for the user's shared lock).
 */
export class ReadModelBatch {
  private readonly totals = new Map<TotalsColumn, number>();
  private readonly days = new Map<string, Map<DailyColumn, number>>();
  private lastEventAt: string | null = null;
  /** The events applied, for the lag metric once they are in. */
  private readonly applied: { type: string; occurredAt: string }[] = [];
  private readonly held = new Map<string, boolean>();
  private readonly erased = new Map<number, boolean>();
  private readonly pending: PendingChange[] = [];

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
   * difference, at `flush`. With an `owner`, only while that user is not erased (their data is not
   * brought back). Changes of one row merge in the order they were asked for.
   */
  apply<R extends Row>(
    projection: Projection<R>,
    id: string | number,
    merge: (current: R | undefined) => R | undefined,
    owner?: number,
  ): void {
    this.pending.push({
      projection: projection as unknown as Projection<Row>,
      id,
      merge: merge as PendingChange['merge'],
      owner,
    });
  }

  /** Makes the changes noted since the last time (see the class). */
  private async applyPending(): Promise<void> {
    const changes = this.pending.splice(0);
    if (changes.length === 0) return;
    const owners = [...new Set(changes.flatMap(({ owner }) => (owner === undefined ? [] : [owner])))].sort(
      (a, b) => a - b,
    );
    const rowLocks = [...new Set(changes.map(({ projection, id }) => rowLockKey(projection, id)))].sort();
    await this.lock(...owners.map((owner) => userLock(owner)), ...rowLocks.map((key) => ({ key, exclusive: true })));

    const unknown = owners.filter((owner) => !this.erased.has(owner));
    if (unknown.length > 0) {
      const tombstones = await queryRows<{ user_id: number }>(
        this.manager,
        `SELECT user_id FROM reporting.deleted_users WHERE user_id = ANY($1::int[])`,
        [unknown],
      );
      const erased = new Set(tombstones.map((row) => row.user_id));
      for (const owner of unknown) this.erased.set(owner, erased.has(owner));
    }

    const states = await this.readRows(changes);
    for (const { projection, id, merge, owner } of changes) {
      if (owner !== undefined && this.erased.get(owner)) continue;
      const state = states.get(rowLockKey(projection, id));
      if (!state) continue;
      const { current } = state;
      const next = merge(current);
      if (!next && !current) continue;
      if (next && current && sameRow(projection, next, current)) continue;
      if (current) this.add(projection.contribution(current), -1);
      if (next) this.add(projection.contribution(next), 1);
      state.current = next;
    }
    await this.writeRows([...states.values()]);
  }

  /** The rows the changes touch, as they are now, in one statement per table. */
  private async readRows(changes: PendingChange[]): Promise<Map<string, RowState>> {
    const states = new Map<string, RowState>();
    const byTable = new Map<Projection<Row>, Set<string | number>>();
    for (const { projection, id } of changes) byTable.set(projection, (byTable.get(projection) ?? new Set()).add(id));
    for (const [projection, ids] of byTable) {
      const { table, key, columns } = projection;
      const found = await queryRows<Record<string, unknown>>(
        this.manager,
        `SELECT ${columns.map((column) => `"${column}"`).join(', ')} FROM reporting."${table}" WHERE "${key}" = ANY($1)`,
        [[...ids]],
      );
      const rows = new Map(found.map((row) => [String(row[key]), normalise(row, columns)]));
      for (const id of ids) {
        const row = rows.get(String(id));
        states.set(rowLockKey(projection, id), { projection, id, found: row, current: row });
      }
    }
    return states;
  }

  /** The rows that changed: upserted, or deleted, in one statement per table (and so many rows). */
  private async writeRows(states: RowState[]): Promise<void> {
    const changed = states.filter(
      ({ projection, found, current }) =>
        found !== current && !(found && current && sameRow(projection, found, current)),
    );
    const byTable = new Map<Projection<Row>, RowState[]>();
    for (const state of changed) byTable.set(state.projection, [...(byTable.get(state.projection) ?? []), state]);
    for (const [{ table, key, columns }, tableStates] of byTable) {
      const gone = tableStates.filter((state) => !state.current).map((state) => state.id);
      if (gone.length > 0) {
        await this.manager.query(`DELETE FROM reporting."${table}" WHERE "${key}" = ANY($1)`, [gone]);
      }
      const rows = tableStates.flatMap((state) => (state.current ? [state.current] : []));
      const list = columns.map((column) => `"${column}"`).join(', ');
      const updates = columns
        .filter((column) => column !== key)
        .map((column) => `"${column}" = EXCLUDED."${column}"`)
        .join(', ');
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        const values = chunk.map(
          (_, row) => `(${columns.map((__, column) => `$${row * columns.length + column + 1}`).join(', ')})`,
        );
        await this.manager.query(
          `INSERT INTO reporting."${table}" (${list}) VALUES ${values.join(', ')} ON CONFLICT ("${key}") DO UPDATE SET ${updates}`,
          chunk.flatMap((row) => columns.map((column) => row[column])),
        );
      }
    }
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
    await this.applyPending();
    await this.moveCounters();
    this.totals.clear();
    this.days.clear();
    this.lastEventAt = null;
    const now = Date.now();
    for (const { type, occurredAt } of this.applied.splice(0)) {
      readModelMetrics.lag.observe({ type }, Math.max(0, (now - Date.parse(occurredAt)) / 1000));
    }
  }

  /**
   * The counters in one statement: the days' rows, in date order, then the totals' row (a
   * data-modifying WITH that nothing reads runs after the main statement), the order every
   * transaction takes them in. A day whose rows all went (an erased user's) then has no row, as a
   * rebuild would leave it.
   */
  private async moveCounters(): Promise<void> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const totals = [...this.totals].filter(([, delta]) => delta !== 0);
    const updateTotals =
      totals.length > 0 || this.lastEventAt
        ? `UPDATE reporting.totals SET ${[
            ...totals.map(([column, delta]) => `"${column}" = "${column}" + ${param(delta)}`),
            `"last_event_at" = GREATEST("last_event_at", ${param(this.lastEventAt)}::timestamptz)`,
          ].join(', ')} WHERE id = 1`
        : undefined;
    const days = [...this.days]
      .map(([date, day]) => ({ date, counts: DAILY_COLUMNS.map((column) => day.get(column) ?? 0) }))
      .filter(({ counts }) => counts.some((delta) => delta !== 0))
      .sort((a, b) => (a.date < b.date ? -1 : 1));
    if (days.length === 0) {
      if (updateTotals) await this.manager.query(updateTotals, params);
      return;
    }
    const values = days.map(({ date, counts }) => `(${[date, ...counts].map(param).join(', ')})`);
    const upsertDays =
      `INSERT INTO reporting.daily_stats ("day", ${DAILY_COLUMNS.map((column) => `"${column}"`).join(', ')}) ` +
      `VALUES ${values.join(', ')} ON CONFLICT ("day") DO UPDATE SET ` +
      DAILY_COLUMNS.map((column) => `"${column}" = daily_stats."${column}" + EXCLUDED."${column}"`).join(', ');
    await this.manager.query(updateTotals ? `WITH totals AS (${updateTotals}) ${upsertDays}` : upsertDays, params);
    const shrunk = days.filter(({ counts }) => counts.some((delta) => delta < 0)).map(({ date }) => date);
    if (shrunk.length > 0) {
      await this.manager.query(
        `DELETE FROM reporting.daily_stats
         WHERE "day" = ANY($1::date[]) AND signups = 0 AND revenue_cents = 0 AND generations = 0 AND failed_jobs = 0`,
        [shrunk],
      );
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

function rowLockKey(projection: Projection<Row>, id: string | number): string {
  return `reporting:${projection.table}:${id}`;
}

function sameRow(projection: Projection<Row>, a: Row, b: Row): boolean {
  return projection.columns.every((column) => a[column] === b[column]);
}

function normalise(found: Record<string, unknown>, columns: readonly string[]): Row {
  const row: Row = {};
  for (const column of columns) {
    const value = found[column];
    row[column] = value instanceof Date ? value.toISOString() : (value as Value);
  }
  return row;
}
