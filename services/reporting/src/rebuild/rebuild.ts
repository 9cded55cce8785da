import {
  AuthRpc,
  BillingRpc,
  GenerationRpc,
  type RpcDefinition,
  type RpcResponse,
  SNAPSHOT_MAX_PAGE,
  TrainingRpc,
} from '@likeness/contracts';
import type { RpcClient } from '@likeness/nest-kit';
import type { DataSource } from 'typeorm';
import { applyBalance, applyJob, applyPayment, applyTraining, applyUser } from '../read-models/projections.js';
import { ReadModelBatch } from '../read-models/read-model-batch.js';

/** The read models and counters a rebuild empties; the tombstones and the inbox stay. */
const READ_MODEL_TABLES = ['users', 'credit_balances', 'payments', 'trainings', 'generation_jobs', 'daily_stats'];

interface SnapshotPage<T> {
  items: T[];
  nextAfterId: unknown;
}

/**
 * Empties the read models and counters and fills them again from the owning services'
 * snapshots, while the service's consumers keep applying events (README, reporting notes):
 *
 * - the tombstones and the inbox stay: an event already applied before the rebuild is reflected
 *   in the snapshot (its service committed the change before publishing it), and an erased user
 *   stays erased;
 * - every snapshot row is merged exactly as an event is (src/read-models/projections.ts), under
 *   the same row locks, with the counters moved by each row's change: an event heard during or
 *   after the rebuild that the snapshot already reflects changes nothing, one the snapshot
 *   missed adds what it adds, so nothing is lost and nothing counts twice.
 */
export async function rebuildReadModels(
  dataSource: DataSource,
  rpc: RpcClient,
  onPage: (what: string, rows: number) => void = () => undefined,
): Promise<Record<string, number>> {
  await dataSource.transaction(async (manager) => {
    await manager.query(`TRUNCATE ${READ_MODEL_TABLES.map((table) => `reporting.${table}`).join(', ')}`);
    await manager.query(
      `UPDATE reporting.totals SET users = 0, payments = 0, revenue_cents = 0, generations_pending = 0,
         generations_completed = 0, generations_failed = 0, trainings_running = 0, trainings_completed = 0,
         trainings_failed = 0, credits_outstanding = 0 WHERE id = 1`,
    );
  });
  const counts: Record<string, number> = {};
  const backfill = async <D extends RpcDefinition>(
    what: string,
    definition: D,
    apply: (batch: ReadModelBatch, item: RpcResponse<D> extends SnapshotPage<infer T> ? T : never) => void,
  ) => {
    let afterId: unknown;
    counts[what] = 0;
    do {
      const page = (await rpc.call(definition, { afterId, limit: SNAPSHOT_MAX_PAGE } as never)) as SnapshotPage<
        RpcResponse<D> extends SnapshotPage<infer T> ? T : never
      >;
      await dataSource.transaction(async (manager) => {
        const batch = new ReadModelBatch(manager);
        for (const item of page.items) apply(batch, item);
        await batch.flush();
      });
      counts[what] += page.items.length;
      onPage(what, page.items.length);
      afterId = page.nextAfterId ?? undefined;
    } while (afterId !== undefined);
  };

  await backfill('users', AuthRpc.snapshotUsers, (batch, user) =>
    applyUser(batch, {
      id: user.userId,
      username: user.username,
      email: user.email,
      role: user.role,
      registered_at: user.registeredAt,
    }),
  );
  await backfill('balances', BillingRpc.snapshotAccounts, (batch, account) =>
    applyBalance(
      batch,
      {
        user_id: account.userId,
        balance: account.balance,
        available: account.available,
        changed_at: account.balanceChangedAt,
      },
      'snapshot',
    ),
  );
  await backfill('payments', BillingRpc.snapshotPayments, (batch, payment) =>
    applyPayment(batch, {
      id: payment.paymentId,
      user_id: payment.userId,
      package_id: payment.packageId,
      amount_cents: payment.amountCents,
      credits: payment.credits,
      status: payment.status,
      refunded_cents: payment.refundedCents,
      created_at: payment.succeededAt,
    }),
  );
  await backfill('trainings', TrainingRpc.snapshotModels, (batch, model) =>
    applyTraining(batch, {
      model_id: model.modelId,
      user_id: model.userId,
      // As the events tell it: the name is known once the training completed.
      model_name: model.status === 'completed' ? model.modelName : null,
      status: model.status,
      failure_reason: model.failureReason,
      started_at: model.startedAt,
      finished_at: model.finishedAt,
    }),
  );
  await backfill('jobs', GenerationRpc.snapshotJobs, (batch, job) =>
    applyJob(batch, {
      id: job.jobId,
      user_id: job.userId,
      prompt_text: job.promptText,
      num_outputs: job.numOutputs,
      status: job.status,
      failure_reason: job.failureReason,
      created_at: job.createdAt,
      finished_at: job.finishedAt,
    }),
  );
  return counts;
}
