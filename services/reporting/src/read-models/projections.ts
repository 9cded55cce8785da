import { type Projection, type ReadModelBatch, earliest, iso, utcDay } from './read-model-batch.js';

/*
 * Every fact (an event, or a row of a snapshot) is merged into its row the same way, whatever
 * order the facts come in: a status only moves up its rank (a finished job never goes back to
 * pending), a field once known stays known, a time is the earliest one heard of, a balance is the
 * newest one (by billing's time of the change). So the same
 * facts in any order, any number of times, give the same rows, and the counters follow the rows.
 */

export interface UserRow extends Record<string, string | number | null> {
  id: number;
  username: string;
  email: string;
  role: string;
  registered_at: string;
}

export const users: Projection<UserRow> = {
  table: 'users',
  key: 'id',
  columns: ['id', 'username', 'email', 'role', 'registered_at'],
  contribution: (row) => ({ totals: { users: 1 }, day: { date: utcDay(row.registered_at), counts: { signups: 1 } } }),
};

export interface BalanceRow extends Record<string, string | number | null> {
  user_id: number;
  balance: number;
  available: number;
  /** When billing changed the balance to this: the newest fact's time wins (below). */
  changed_at: string;
}

export const balances: Projection<BalanceRow> = {
  table: 'credit_balances',
  key: 'user_id',
  columns: ['user_id', 'balance', 'available', 'changed_at'],
  contribution: (row) => ({ totals: { credits_outstanding: row.balance } }),
};

/** Where a balance comes from: a CreditsChanged event, or billing's account row (a rebuild). */
export type BalanceSource = 'event' | 'snapshot';

/**
 * A balance is a value, not a change: the row keeps the newest one by billing's time of the change
 * (README, reporting notes). One account's CreditsChanged events carry strictly increasing times
 * in commit order, so the newest event holds the account's balance however late the older ones
 * come. The account's row carries the time of its newest event; as it also tells holds made
 * since (which publish nothing), it wins a tie with that event, whichever is heard first.
 */
export function mergeBalance(current: BalanceRow | undefined, fact: BalanceRow, source: BalanceSource): BalanceRow {
  if (!current) return fact;
  const newer = source === 'snapshot' ? fact.changed_at >= current.changed_at : fact.changed_at > current.changed_at;
  return newer ? fact : current;
}

export type PaymentStatus = 'succeeded' | 'refunded' | 'disputed';
const paymentRank: Record<PaymentStatus, number> = { succeeded: 0, refunded: 1, disputed: 2 };

export interface PaymentRow extends Record<string, string | number | null> {
  id: string;
  user_id: number;
  package_id: string;
  amount_cents: number;
  credits: number;
  status: PaymentStatus;
  refunded_cents: number;
  created_at: string;
}

export const payments: Projection<PaymentRow> = {
  table: 'payments',
  key: 'id',
  columns: ['id', 'user_id', 'package_id', 'amount_cents', 'credits', 'status', 'refunded_cents', 'created_at'],
  contribution: (row) => {
    const revenue = row.amount_cents - row.refunded_cents;
    return {
      totals: { payments: 1, revenue_cents: revenue },
      day: { date: utcDay(row.created_at), counts: { revenue_cents: revenue } },
    };
  },
};

export function mergePayment(current: PaymentRow | undefined, fact: PaymentRow): PaymentRow {
  if (!current) return fact;
  return {
    ...fact,
    status: paymentRank[current.status] >= paymentRank[fact.status] ? current.status : fact.status,
    refunded_cents: Math.min(fact.amount_cents, Math.max(current.refunded_cents, fact.refunded_cents)),
    created_at: earliest(current.created_at, fact.created_at) ?? fact.created_at,
  };
}

export type TrainingStatus = 'training' | 'completed' | 'failed';
const trainingRank: Record<TrainingStatus, number> = { training: 0, completed: 1, failed: 2 };

export interface TrainingRow extends Record<string, string | number | null> {
  model_id: number;
  user_id: number;
  model_name: string | null;
  status: TrainingStatus;
  failure_reason: string | null;
  started_at: string | null;
  finished_at: string | null;
}

const trainingCounter = {
  training: 'trainings_running',
  completed: 'trainings_completed',
  failed: 'trainings_failed',
} as const;

export const trainings: Projection<TrainingRow> = {
  table: 'trainings',
  key: 'model_id',
  columns: ['model_id', 'user_id', 'model_name', 'status', 'failure_reason', 'started_at', 'finished_at'],
  contribution: (row) => ({ totals: { [trainingCounter[row.status]]: 1 } }),
};

export function mergeTraining(current: TrainingRow | undefined, fact: TrainingRow): TrainingRow {
  if (!current) return fact;
  const status = trainingRank[current.status] >= trainingRank[fact.status] ? current.status : fact.status;
  return {
    model_id: current.model_id,
    user_id: current.user_id,
    model_name: current.model_name ?? fact.model_name,
    status,
    failure_reason: status === 'failed' ? (current.failure_reason ?? fact.failure_reason) : null,
    started_at: earliest(current.started_at, fact.started_at),
    finished_at: earliest(current.finished_at, fact.finished_at),
  };
}

export type JobStatus = 'pending' | 'completed' | 'failed';
const jobRank: Record<JobStatus, number> = { pending: 0, completed: 1, failed: 2 };

export interface JobRow extends Record<string, string | number | null> {
  id: string;
  user_id: number;
  prompt_text: string | null;
  num_outputs: number | null;
  status: JobStatus;
  failure_reason: string | null;
  /** Null until the request (or a snapshot) is heard of. */
  created_at: string | null;
  finished_at: string | null;
}

const jobCounter = {
  pending: 'generations_pending',
  completed: 'generations_completed',
  failed: 'generations_failed',
} as const;

export const jobs: Projection<JobRow> = {
  table: 'generation_jobs',
  key: 'id',
  columns: ['id', 'user_id', 'prompt_text', 'num_outputs', 'status', 'failure_reason', 'created_at', 'finished_at'],
  contribution: (row) => ({
    totals: { [jobCounter[row.status]]: 1 },
    ...(row.created_at
      ? {
          day: {
            date: utcDay(row.created_at),
            counts: { generations: 1, failed_jobs: row.status === 'failed' ? 1 : 0 },
          },
        }
      : {}),
  }),
};

export function mergeJob(current: JobRow | undefined, fact: JobRow): JobRow {
  if (!current) return fact;
  const status = jobRank[current.status] >= jobRank[fact.status] ? current.status : fact.status;
  return {
    id: current.id,
    user_id: current.user_id,
    prompt_text: current.prompt_text ?? fact.prompt_text,
    num_outputs: current.num_outputs ?? fact.num_outputs,
    status,
    failure_reason: status === 'failed' ? (current.failure_reason ?? fact.failure_reason) : null,
    created_at: earliest(current.created_at, fact.created_at),
    finished_at: earliest(current.finished_at, fact.finished_at),
  };
}

/*
 * The facts, applied to a batch. The same functions serve the event handlers and the rebuild, so
 * an event and the snapshot row that already reflects it merge into one and the same row.
 */

/* A user's rows are kept only while the user is not erased (their data is not brought back): `apply`'s owner. */

export function applyUser(batch: ReadModelBatch, user: UserRow): void {
  const fact = { ...user, registered_at: iso(user.registered_at) };
  batch.apply(users, user.id, () => fact, user.id);
}

export function applyBalance(batch: ReadModelBatch, balance: BalanceRow, source: BalanceSource): void {
  const fact = { ...balance, changed_at: iso(balance.changed_at) };
  batch.apply(balances, balance.user_id, (current) => mergeBalance(current, fact, source), balance.user_id);
}

/** Billing keeps a deleted user's payments for accounting, and so does reporting (they name nobody). */
export function applyPayment(batch: ReadModelBatch, payment: PaymentRow): void {
  const fact = { ...payment, created_at: iso(payment.created_at) };
  batch.apply(payments, payment.id, (current) => mergePayment(current, fact));
}

export function applyTraining(batch: ReadModelBatch, training: TrainingRow): void {
  batch.apply(trainings, training.model_id, (current) => mergeTraining(current, training), training.user_id);
}

/** The id lowercase, as PostgreSQL writes a uuid: one job is one row to the batch however it is spelt. */
export function applyJob(batch: ReadModelBatch, job: JobRow): void {
  batch.apply(jobs, job.id.toLowerCase(), (current) => mergeJob(current, job), job.user_id);
}
