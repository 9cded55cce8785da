import { TrainingEvents } from '@likeness/contracts';
import type { Training } from '@likeness/inference';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { CustomModel } from './custom-model.entity.js';
import { type CustomModelRow, fromRow } from './custom-model.view.js';
import { failureReasonOf } from './failure-reasons.js';

/**
 * The only writers of a model's status. Each move is one conditional UPDATE that names the
 * status it leaves, in the same transaction as the event announcing it: however many pollers,
 * webhooks and restarts race, a model moves once and its event goes out once. The event's time
 * is the started_at or finished_at written on the row (reporting's rebuild reads those).
 */
@Injectable()
export class ModelTransitions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** pending → training, with TrainingStarted. Undefined when the model was no longer pending. */
  started(model: CustomModel, training: Training): Promise<CustomModel | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const startedAt = new Date();
      const [row] = await queryRows<CustomModelRow>(
        manager,
        `UPDATE training.custom_models
         SET status = 'training', training_job_id = $2, provider_model = $3, started_at = $4, updated_at = $4
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [model.id, training.id, training.destination ?? null, startedAt],
      );
      if (!row) return undefined;
      const started = fromRow(row);
      await this.outbox.add(
        manager,
        TrainingEvents.TrainingStarted,
        {
          modelId: started.id,
          userId: started.userId,
          holdReference: started.holdReference,
          provider: started.provider,
          trainingJobId: training.id,
        },
        { occurredAt: startedAt },
      );
      return started;
    });
  }

  /**
   * training → completed or failed, as the provider's training says, with TrainingCompleted or
   * TrainingFailed. Nothing happens while the training runs, when the model already moved on, or
   * when the training is not the model's. Runs in the caller's transaction when given one.
   */
  async resolve(modelId: number, training: Training, manager?: EntityManager): Promise<CustomModel | undefined> {
    if (!manager) return this.dataSource.transaction((inner) => this.resolve(modelId, training, inner));
    if (training.status === 'succeeded' && training.version) {
      const finishedAt = new Date();
      const [row] = await queryRows<CustomModelRow>(
        manager,
        `UPDATE training.custom_models
         SET status = 'completed', version = $3, provider_model = coalesce($4, provider_model),
             finished_at = $5, updated_at = $5
         WHERE id = $1 AND status = 'training' AND training_job_id = $2 RETURNING *`,
        [modelId, training.id, training.version, training.destination ?? null, finishedAt],
      );
      if (!row) return undefined;
      const completed = fromRow(row);
      await this.outbox.add(
        manager,
        TrainingEvents.TrainingCompleted,
        {
          modelId: completed.id,
          userId: completed.userId,
          holdReference: completed.holdReference,
          modelName: completed.modelName,
          triggerWord: completed.triggerWord,
          provider: completed.provider,
          version: training.version,
          imageKeys: completed.imageKeys,
        },
        { occurredAt: finishedAt },
      );
      return completed;
    }
    const reason = failureReasonOf(training);
    if (!reason) return undefined;
    return this.fail(modelId, 'training', reason, manager, training.id);
  }

  /**
   * pending or training → failed, with TrainingFailed (billing releases the hold, media the
   * selfies). Undefined when the model had already left `from`.
   */
  async fail(
    modelId: number,
    from: 'pending' | 'training',
    reason: string,
    manager?: EntityManager,
    trainingJobId?: string,
  ): Promise<CustomModel | undefined> {
    if (!manager) return this.dataSource.transaction((inner) => this.fail(modelId, from, reason, inner, trainingJobId));
    const finishedAt = new Date();
    const [row] = await queryRows<CustomModelRow>(
      manager,
      `UPDATE training.custom_models
       SET status = 'failed', failure_reason = $3, finished_at = $5, updated_at = $5
       WHERE id = $1 AND status = $2 AND ($4::text IS NULL OR training_job_id = $4) RETURNING *`,
      [modelId, from, reason, trainingJobId ?? null, finishedAt],
    );
    if (!row) return undefined;
    const failed = fromRow(row);
    await this.outbox.add(
      manager,
      TrainingEvents.TrainingFailed,
      { modelId: failed.id, userId: failed.userId, holdReference: failed.holdReference, reason },
      { occurredAt: finishedAt },
    );
    return failed;
  }
}
