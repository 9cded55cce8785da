import {
  type AdminGenerationJob,
  type AdminGenerationJobsQuery,
  type AdminPayment,
  type AdminPaymentsQuery,
  type AdminSummary,
  type AdminTimeseries,
  type AdminUser,
  type AdminUserDetail,
  type AdminUsersQuery,
  MAX_STORED_INTEGER,
} from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type KeysetQuery, keysetSql, pageOf } from './keyset.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A search text that is a whole number fitting an id column, as that id. */
function idIn(q: string | undefined): number | undefined {
  if (!q || !/^[0-9]{1,10}$/.test(q)) return undefined;
  const id = Number(q);
  return id >= 1 && id <= MAX_STORED_INTEGER ? id : undefined;
}

/** `%`, `_` and `\` in a search text match themselves. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

interface UserListRow {
  id: number;
  username: string;
  email: string;
  role: 'user' | 'admin';
  created_at: Date;
  credits: number;
}

interface PaymentListRow {
  id: string;
  user_id: number;
  amount_cents: number;
  credits: number;
  status: AdminPayment['status'];
  refunded_cents: number;
  package_id: string;
  created_at: Date;
}

interface JobListRow {
  id: string;
  user_id: number;
  prompt_text: string | null;
  num_outputs: number | null;
  status: AdminGenerationJob['status'];
  failure_reason: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const USER_COLUMNS = `u.id, u.username, u.email, u.role, u.registered_at AS created_at, COALESCE(b.available, 0) AS credits`;
const PAYMENT_COLUMNS = `id, user_id, amount_cents, credits, status, refunded_cents, package_id, created_at`;
const JOB_COLUMNS = `id, user_id, prompt_text, num_outputs, status, failure_reason, created_at, finished_at`;

function toUser(row: UserListRow): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    credits: row.credits,
    createdAt: row.created_at.toISOString(),
  };
}

function toPayment(row: PaymentListRow): AdminPayment {
  return {
    id: row.id,
    userId: row.user_id,
    amount: row.amount_cents,
    credits: row.credits,
    status: row.status,
    refundedAmount: row.refunded_cents,
    packageId: row.package_id,
    createdAt: row.created_at.toISOString(),
  };
}

function toJob(row: JobListRow): AdminGenerationJob {
  return {
    id: row.id,
    userId: row.user_id,
    promptText: row.prompt_text ?? '',
    status: row.status,
    // A list row always has its request: num_outputs came with it.
    numOutputs: row.num_outputs ?? 1,
    failureReason: row.status === 'failed' ? row.failure_reason : null,
    durationMs: row.finished_at ? Math.max(0, row.finished_at.getTime() - row.created_at.getTime()) : null,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** The admin RPCs' reads: keyset pages on indexes matching their order, and the counters. */
@Injectable()
export class AdminQueries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async listUsers(query: AdminUsersQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.q) {
      params.push(likePattern(query.q));
      const id = idIn(query.q);
      const byId = id === undefined ? '' : ` OR u.id = $${params.push(id)}`;
      where.push(`(u.username ILIKE $1 OR u.email ILIKE $1${byId})`);
    }
    return this.page<UserListRow, AdminUser>(
      {
        select: USER_COLUMNS,
        from: `reporting.users u LEFT JOIN reporting.credit_balances b ON b.user_id = u.id`,
        sortColumn: 'u.registered_at',
        idColumn: 'u.id',
        idCast: 'integer',
        where,
        params,
        sort: query.sort,
        limit: query.limit,
        cursor: query.cursor,
        scope: ['users', query.sort, query.q ?? null],
      },
      toUser,
    );
  }

  async listPayments(query: AdminPaymentsQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const filter = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
    if (query.status) filter('status = ?', query.status);
    if (query.userId) filter('user_id = ?', query.userId);
    if (query.q) {
      const id = idIn(query.q);
      if (id !== undefined) filter('user_id = ?', id);
      else if (UUID.test(query.q)) filter('id = ?', query.q.toLowerCase());
      else return { items: [], nextCursor: null };
    }
    return this.page<PaymentListRow, AdminPayment>(
      {
        select: PAYMENT_COLUMNS,
        from: 'reporting.payments',
        sortColumn: 'created_at',
        idColumn: 'id',
        idCast: 'varchar',
        where,
        params,
        sort: query.sort,
        limit: query.limit,
        cursor: query.cursor,
        scope: ['payments', query.sort, query.q ?? null, query.status ?? null, query.userId ?? null],
      },
      toPayment,
    );
  }

  async listGenerationJobs(query: AdminGenerationJobsQuery) {
    const where: string[] = ['created_at IS NOT NULL'];
    const params: unknown[] = [];
    const filter = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
    if (query.status) filter('status = ?', query.status);
    if (query.userId) filter('user_id = ?', query.userId);
    if (query.q) {
      const id = idIn(query.q);
      if (id !== undefined) filter('user_id = ?', id);
      else if (UUID.test(query.q)) filter('id = ?::uuid', query.q);
      else return { items: [], nextCursor: null };
    }
    return this.page<JobListRow, AdminGenerationJob>(
      {
        select: JOB_COLUMNS,
        from: 'reporting.generation_jobs',
        sortColumn: 'created_at',
        idColumn: 'id',
        idCast: 'uuid',
        where,
        params,
        sort: query.sort,
        limit: query.limit,
        cursor: query.cursor,
        scope: ['jobs', query.sort, query.q ?? null, query.status ?? null, query.userId ?? null],
      },
      toJob,
    );
  }

  async getUser(userId: number): Promise<AdminUserDetail> {
    const manager = this.dataSource.manager;
    const [user] = await queryRows<UserListRow>(
      manager,
      `SELECT ${USER_COLUMNS} FROM reporting.users u LEFT JOIN reporting.credit_balances b ON b.user_id = u.id WHERE u.id = $1`,
      [userId],
    );
    if (!user) throw new DomainError('COMMON.NOT_FOUND', 'We could not find that user.');
    const [balance] = await queryRows<{ balance: number; available: number }>(
      manager,
      `SELECT balance, available FROM reporting.credit_balances WHERE user_id = $1`,
      [userId],
    );
    const payments = await queryRows<PaymentListRow>(
      manager,
      `SELECT ${PAYMENT_COLUMNS} FROM reporting.payments WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`,
      [userId],
    );
    const models = await queryRows<{
      model_id: number;
      model_name: string | null;
      status: 'training' | 'completed' | 'failed';
      failure_reason: string | null;
      started_at: Date | null;
      finished_at: Date | null;
    }>(
      manager,
      `SELECT model_id, model_name, status, failure_reason, started_at, finished_at FROM reporting.trainings
       WHERE user_id = $1 ORDER BY model_id DESC`,
      [userId],
    );
    const recentJobs = await queryRows<JobListRow>(
      manager,
      `SELECT ${JOB_COLUMNS} FROM reporting.generation_jobs WHERE user_id = $1 AND created_at IS NOT NULL
       ORDER BY created_at DESC, id DESC LIMIT 20`,
      [userId],
    );
    return {
      user: toUser(user),
      balance: { balance: balance?.balance ?? 0, available: balance?.available ?? 0 },
      payments: payments.map(toPayment),
      models: models.flatMap((model) => {
        const createdAt = model.started_at ?? model.finished_at;
        return createdAt
          ? [
              {
                id: model.model_id,
                modelName: model.model_name,
                status: model.status,
                failureReason: model.status === 'failed' ? model.failure_reason : null,
                createdAt: createdAt.toISOString(),
                finishedAt: model.finished_at?.toISOString() ?? null,
              },
            ]
          : [];
      }),
      recentJobs: recentJobs.map(toJob),
    };
  }

  async summary(): Promise<AdminSummary> {
    const [totals] = await queryRows<{
      users: number;
      payments: number;
      revenue_cents: string;
      generations_pending: number;
      generations_completed: number;
      generations_failed: number;
      trainings_running: number;
      trainings_completed: number;
      trainings_failed: number;
      credits_outstanding: string;
      last_event_at: Date | null;
    }>(this.dataSource.manager, `SELECT * FROM reporting.totals WHERE id = 1`, []);
    if (!totals) throw new Error('reporting.totals has no row: run the migrations');
    const rate = (failed: number, completed: number) => (failed + completed === 0 ? 0 : failed / (failed + completed));
    const revenueCents = Number(totals.revenue_cents);
    return {
      totalUsers: totals.users,
      revenue: revenueCents / 100,
      revenueCents,
      totalPayments: totals.payments,
      totalGenerations: totals.generations_pending + totals.generations_completed + totals.generations_failed,
      generations: {
        completed: totals.generations_completed,
        failed: totals.generations_failed,
        inProgress: totals.generations_pending,
        failureRate: rate(totals.generations_failed, totals.generations_completed),
      },
      trainings: {
        total: totals.trainings_running + totals.trainings_completed + totals.trainings_failed,
        completed: totals.trainings_completed,
        failed: totals.trainings_failed,
        inProgress: totals.trainings_running,
        failureRate: rate(totals.trainings_failed, totals.trainings_completed),
      },
      creditsOutstanding: Number(totals.credits_outstanding),
      lastEventAt: totals.last_event_at?.toISOString() ?? null,
    };
  }

  async timeseries(days: number): Promise<AdminTimeseries> {
    const rows = await queryRows<{
      date: string;
      signups: number;
      revenue_cents: string;
      generations: number;
      failed_jobs: number;
    }>(
      this.dataSource.manager,
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(s.signups, 0) AS signups,
              COALESCE(s.revenue_cents, 0) AS revenue_cents, COALESCE(s.generations, 0) AS generations,
              COALESCE(s.failed_jobs, 0) AS failed_jobs
       FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::integer - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
       LEFT JOIN reporting.daily_stats s ON s.day = d.day::date
       ORDER BY d.day`,
      [days],
    );
    return {
      days: rows.map((row) => ({
        date: row.date,
        signups: row.signups,
        revenueCents: Number(row.revenue_cents),
        generations: row.generations,
        failedJobs: row.failed_jobs,
      })),
    };
  }

  private async page<R extends { created_at: Date; id: string | number }, T>(
    query: KeysetQuery,
    toItem: (row: R) => T,
  ) {
    const { sql, params } = keysetSql(query);
    const rows = await queryRows<R>(this.dataSource.manager, sql, params);
    return pageOf(rows, query.limit, query.scope, toItem);
  }
}
