import { type EraseProviderModels, eraseProviderModels } from '@likeness/contracts';
import { type ProviderKind, TrainingNotFoundError, type TrainingProvider } from '@likeness/inference';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TRAINING_PROVIDER } from '../providers/training-provider.provider.js';

interface RemovedModel {
  provider: ProviderKind;
  status: string;
  training_job_id: string | null;
  provider_model: string | null;
}

/**
 * Erases a deleted user's models. The rows go at once, in the event's transaction (the models
 * can no longer be listed or run, and a training that ends later finds no model to complete);
 * what the provider keeps is erased by a job, as a provider call may fail and must be retried.
 */
@Injectable()
export class ModelErasure {
  private readonly logger = new Logger(ModelErasure.name);

  constructor(
    @Inject(TRAINING_PROVIDER) private readonly provider: TrainingProvider,
    private readonly outbox: OutboxService,
  ) {}

  async eraseRows(manager: EntityManager, userId: number): Promise<void> {
    const removed = await queryRows<RemovedModel>(
      manager,
      `DELETE FROM training.custom_models WHERE user_id = $1
       RETURNING provider, status, training_job_id, provider_model`,
      [userId],
    );
    for (const provider of new Set(removed.map((model) => model.provider))) {
      const models = removed.filter((model) => model.provider === provider);
      const trainingIds = models.flatMap((model) =>
        model.training_job_id && (model.status === 'pending' || model.status === 'training')
          ? [model.training_job_id]
          : [],
      );
      const destinations = [...new Set(models.flatMap((model) => model.provider_model ?? []))];
      if (trainingIds.length === 0 && destinations.length === 0) continue;
      await this.outbox.enqueue(manager, eraseProviderModels, { userId, provider, trainingIds, destinations });
    }
    if (removed.length > 0) this.logger.log(`Erased ${removed.length} model(s) of deleted user ${userId}`);
  }

  /** Cancels the trainings still running and deletes the destination models; each step idempotent. */
  async eraseAtProvider({ userId, provider, trainingIds, destinations }: EraseProviderModels): Promise<void> {
    if (provider !== this.provider.kind) {
      // Not retryable from here: this process cannot reach that provider.
      this.logger.error(
        `The ${provider} models of deleted user ${userId} cannot be erased: training now runs on ${this.provider.kind}`,
      );
      return;
    }
    for (const id of trainingIds) {
      await this.provider.cancelTraining(id).catch((error: unknown) => {
        // Gone already is as good as cancelled.
        if (!(error instanceof TrainingNotFoundError)) throw error;
      });
    }
    for (const destination of destinations) await this.provider.deleteModel(destination);
    this.logger.log(
      `Erased at ${provider} for deleted user ${userId}: ${trainingIds.length} training(s) cancelled, ${destinations.length} model(s) deleted`,
    );
  }

  async gaveUp(payload: EraseProviderModels, error: unknown): Promise<void> {
    this.logger.error(
      `Erasing the ${payload.provider} models of deleted user ${payload.userId} failed for good ` +
        `(trainings ${payload.trainingIds.join(', ') || 'none'}; models ${payload.destinations.join(', ') || 'none'}); ` +
        `remove them by hand: ${(error as Error).message}`,
    );
  }
}
