import { TrainingNotFoundError, type TrainingProvider, isFinished } from '@likeness/inference';
import { APP_CONFIG, Periodic, queryRows } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TRAINING_PROVIDER } from '../providers/training-provider.provider.js';
import type { TrainingConfig } from '../training.config.js';
import type { CustomModel } from './custom-model.entity.js';
import { type CustomModelRow, fromRow } from './custom-model.view.js';
import { FailureReasons } from './failure-reasons.js';
import { ModelTransitions } from './model-transitions.js';
import { TrainingService } from './training.service.js';

/** Trainings asked about per pass; the oldest first. Webhooks do most of the work with Replicate. */
const BATCH = 200;
/** Provider calls of one pass in flight at once. */
const CONCURRENCY = 4;
/** Webhook ids are kept well past the signature's tolerance, after which a replay is refused anyway. */
const DELIVERY_RETENTION = '1 day';

/**
 * The poller that makes sure every training ends: on each interval it asks the provider about
 * each model in training and resolves the finished ones (a webhook that never came changes
 * nothing), stops and fails trainings past TRAINING_TIMEOUT_MS, and resumes starts that died
 * half-way. One replica at a time runs a pass; the transitions are conditional anyway, so a
 * concurrent pass would still move each model once.
 */
@Injectable()
export class TrainingReconciler {
  private readonly logger = new Logger(TrainingReconciler.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: TrainingConfig,
    @Inject(TRAINING_PROVIDER) private readonly provider: TrainingProvider,
    private readonly transitions: ModelTransitions,
    private readonly trainings: TrainingService,
  ) {}

  /** One pass over the trainings under way and the starts left behind. */
  @Periodic((config: TrainingConfig) => ({ everyMs: config.RECONCILE_INTERVAL_MS, lock: 'training.reconciler' }))
  async reconcile(): Promise<void> {
    await this.checkTrainings();
    await this.resumeStale();
    await this.dataSource.query(
      `DELETE FROM training.webhook_deliveries WHERE received_at < now() - interval '${DELIVERY_RETENTION}'`,
    );
  }

  private async checkTrainings(): Promise<void> {
    const models = (
      await queryRows<CustomModelRow>(
        this.dataSource.manager,
        `SELECT * FROM training.custom_models WHERE status = 'training' ORDER BY started_at, id LIMIT ${BATCH}`,
        [],
      )
    ).map(fromRow);
    const queue = [...models];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let model = queue.shift(); model; model = queue.shift()) {
          await this.check(model).catch((error: Error) =>
            this.logger.warn(`Checking the training of model ${model?.id} failed: ${error.message}`),
          );
        }
      }),
    );
  }

  /** Resolves one model in training as its provider says, or stops it when it ran too long. */
  private async check(model: CustomModel): Promise<void> {
    const jobId = model.trainingJobId;
    if (!jobId || model.provider !== this.provider.kind) {
      this.logger.error(`Model ${model.id} trains on ${model.provider}, which is not configured; failing it`);
      await this.transitions.fail(model.id, 'training', FailureReasons.providerChanged);
      return;
    }
    let training;
    try {
      training = await this.provider.getTraining(jobId);
    } catch (error) {
      if (!(error instanceof TrainingNotFoundError)) throw error;
      this.logger.error(`The provider has no training ${jobId} of model ${model.id}; failing it`);
      await this.transitions.fail(model.id, 'training', FailureReasons.lost, undefined, jobId);
      return;
    }
    if (isFinished(training.status)) {
      const resolved = await this.transitions.resolve(model.id, training);
      if (resolved) this.logger.log(`Model ${model.id} is ${resolved.status} (seen by the reconciler)`);
      return;
    }
    const startedAt = (model.startedAt ?? model.createdAt).getTime();
    if (Date.now() - startedAt > this.config.TRAINING_TIMEOUT_MS) {
      this.logger.warn(`Model ${model.id} has trained for too long; stopping training ${jobId}`);
      await this.provider
        .cancelTraining(jobId)
        .catch((error: Error) => this.logger.warn(`Cancelling training ${jobId} failed: ${error.message}`));
      await this.transitions.fail(model.id, 'training', FailureReasons.timedOut, undefined, jobId);
    }
  }

  /** Starts left 'pending' longer than PENDING_TIMEOUT_MS: resumed unless someone still drives them. */
  private async resumeStale(): Promise<void> {
    const stale = await queryRows<{ id: number }>(
      this.dataSource.manager,
      `SELECT id FROM training.custom_models
       WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY updated_at LIMIT ${BATCH}`,
      [this.config.PENDING_TIMEOUT_MS],
    );
    for (const { id } of stale) {
      await this.trainings
        .resume(id)
        .catch((error: Error) => this.logger.warn(`Resuming model ${id} failed: ${error.message}`));
    }
  }
}
