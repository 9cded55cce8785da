import { queryRows } from '@likeness/nest-kit';
import { type ReadModelBatch, iso } from './read-model-batch.js';
import { balances, jobs, trainings, users } from './projections.js';

/**
 * A deleted user leaves every read model that names them: their row, balance, trainings and jobs
 * (prompts are theirs) go, moving the counters with them; their id stays as a tombstone so no
 * later event brings anything back. Payments stay, as in billing: they name nobody
 * (docs/data-retention.md).
 */
export async function eraseUser(batch: ReadModelBatch, userId: number, deletedAt: string): Promise<void> {
  await batch.lockUser(userId, true);
  await batch.manager.query(
    `INSERT INTO reporting.deleted_users (user_id, deleted_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`,
    [userId, iso(deletedAt)],
  );
  batch.erasing(userId);
  batch.apply(users, userId, () => undefined);
  batch.apply(balances, userId, () => undefined);
  const models = await queryRows<{ model_id: number }>(
    batch.manager,
    `SELECT model_id FROM reporting.trainings WHERE user_id = $1 ORDER BY model_id`,
    [userId],
  );
  for (const { model_id } of models) batch.apply(trainings, model_id, () => undefined);
  const userJobs = await queryRows<{ id: string }>(
    batch.manager,
    `SELECT id FROM reporting.generation_jobs WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  for (const { id } of userJobs) batch.apply(jobs, id, () => undefined);
}
