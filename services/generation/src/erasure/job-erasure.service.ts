import { cancelUserPredictions } from '@likeness/contracts';
import type { ProviderKind } from '@likeness/inference';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

interface RemovedJob {
  status: string;
  provider: ProviderKind;
  prediction_id: string | null;
}

/**
 * Erases a deleted user's generation jobs, in the event's transaction. A queued job's message
 * finds no row and is skipped; a running one's prediction is cancelled by a worker (the job's
 * ending then finds no row either). Nothing is charged: the end of a job never comes, and billing
 * releases the open holds of the deleted account itself.
 */
@Injectable()
export class JobErasure {
  private readonly logger = new Logger(JobErasure.name);

  constructor(private readonly outbox: OutboxService) {}

  async eraseRows(manager: EntityManager, userId: number): Promise<void> {
    const removed = await queryRows<RemovedJob>(
      manager,
      `DELETE FROM generation.generation_jobs WHERE user_id = $1 RETURNING status, provider, prediction_id`,
      [userId],
    );
    const running = removed.flatMap((job) =>
      job.status === 'pending' && job.prediction_id
        ? [{ provider: job.provider, predictionId: job.prediction_id }]
        : [],
    );
    for (const provider of new Set(running.map((job) => job.provider))) {
      const predictionIds = running.flatMap((job) => (job.provider === provider ? [job.predictionId] : []));
      await this.outbox.enqueue(manager, cancelUserPredictions, { userId, provider, predictionIds });
    }
    if (removed.length > 0) {
      const queued = removed.filter((job) => job.status === 'pending').length;
      this.logger.log(`Erased ${removed.length} generation job(s) of deleted user ${userId}, ${queued} unfinished`);
    }
  }
}
