import { randomUUID } from 'node:crypto';
import {
  BillingRpc,
  type CustomModel as CustomModelView,
  type ErrorCode,
  MediaRpc,
  TRAINING_COST,
  type TrainingRpc,
  type RpcRequest,
} from '@likeness/contracts';
import { ProviderRejectedError, type Training, type TrainingProvider, isFinished } from '@likeness/inference';
import { APP_CONFIG, DomainError, RpcClient } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { ModelErasure } from '../erasure/model-erasure.service.js';
import { TRAINING_PROVIDER } from '../providers/training-provider.provider.js';
import type { TrainingConfig } from '../training.config.js';
import { CustomModel } from './custom-model.entity.js';
import { toModelView } from './custom-model.view.js';
import { FailureReasons } from './failure-reasons.js';
import { ModelLeases } from './model-leases.js';
import { ModelTransitions } from './model-transitions.js';

export const ALREADY_TRAINING =
  'You already have a model in training. Please wait until it finishes before training another.';
export const SELFIES_NOT_FOUND = 'Some of the chosen selfies were not found. Please choose again.';
export const ACCOUNT_GONE = 'That account no longer exists.';
export const PROVIDER_UNAVAILABLE =
  'The training provider is not available right now. Please try again later. Your credits were not charged.';

const ONE_ACTIVE_PER_USER = 'custom_models_one_active_per_user_key';

/** What the steps before the provider produced. */
interface Prepared {
  imageKeys: string[];
  imagesZipUrl?: string;
}

/** A step refused for good: retrying it will not help, the model fails with this reason. */
class StepRefused extends Error {
  constructor(
    readonly reason: string,
    readonly callerError: DomainError,
  ) {
    super(reason);
  }
}

const hasCode = (error: unknown, code: ErrorCode) => error instanceof DomainError && error.code === code;

/**
 * Starts trainings: the first half of the training saga. In order, each step idempotent:
 * a 'pending' row (the one-at-a-time rule is its unique index), the billing hold, the selfie
 * locks, the images' zip (Replicate), the provider's training, then 'training' with
 * TrainingStarted. A failure before the provider undoes what was done and removes the row; a
 * failure at the provider fails the model with TrainingFailed, which billing and media answer by
 * releasing the hold and the selfies. A start that died half-way (a crash) is finished or failed
 * by `resume`, which the reconciler calls.
 */
@Injectable()
export class TrainingService {
  private readonly logger = new Logger(TrainingService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: TrainingConfig,
    @Inject(TRAINING_PROVIDER) private readonly provider: TrainingProvider,
    private readonly rpc: RpcClient,
    private readonly transitions: ModelTransitions,
    private readonly leases: ModelLeases,
    private readonly erasure: ModelErasure,
  ) {}

  async train(request: RpcRequest<typeof TrainingRpc.trainModel>): Promise<CustomModelView> {
    const model = await this.createPending(request);
    return this.leases.hold(model.id, async () => {
      let prepared: Prepared;
      try {
        prepared = await this.prepare(model);
      } catch (error) {
        await this.undo(model, error);
        throw error instanceof StepRefused ? error.callerError : error;
      }
      return toModelView(await this.start(model, prepared));
    });
  }

  /**
   * Picks up a start that nobody is driving any more (its process died): retries the missing
   * steps (each is idempotent, and the provider adopts a training it already started for the
   * model), or fails the model when a step refuses or it has been pending too long.
   */
  async resume(modelId: number): Promise<void> {
    await this.leases.holdIfFree(modelId, async () => {
      const model = await this.dataSource.getRepository(CustomModel).findOneBy({ id: modelId, status: 'pending' });
      if (!model) return;
      if (model.provider !== this.provider.kind) {
        await this.transitions.fail(model.id, 'pending', FailureReasons.providerChanged);
        return;
      }
      this.logger.warn(`Resuming the start of model ${model.id}, left pending since ${model.updatedAt.toISOString()}`);
      const givenUpAt = model.createdAt.getTime() + this.config.PENDING_TIMEOUT_MS * 10;
      try {
        await this.start(model, await this.prepare(model), 'throw');
      } catch (error) {
        if (error instanceof StepRefused) {
          await this.transitions.fail(model.id, 'pending', error.reason);
        } else if (error instanceof ProviderRejectedError) {
          this.logger.error(`The provider refused to start model ${model.id}: ${error.message}`);
          await this.transitions.fail(model.id, 'pending', FailureReasons.providerUnavailable);
        } else if (Date.now() > givenUpAt) {
          this.logger.error(`Giving up on starting model ${model.id}: ${(error as Error).message}`);
          await this.transitions.fail(model.id, 'pending', FailureReasons.notStarted);
        } else {
          this.logger.warn(`Starting model ${model.id} failed again, will retry: ${(error as Error).message}`);
          await this.dataSource.query(`UPDATE training.custom_models SET updated_at = now() WHERE id = $1`, [model.id]);
        }
      }
    });
  }

  /** a. The row, 'pending'; a second active model of the same person is refused by the index. */
  private async createPending(request: RpcRequest<typeof TrainingRpc.trainModel>): Promise<CustomModel> {
    try {
      const repository = this.dataSource.getRepository(CustomModel);
      return await repository.save(
        repository.create({
          userId: request.userId,
          modelName: request.modelName,
          triggerWord: request.triggerWord,
          trainingType: request.trainingType,
          status: 'pending',
          provider: this.provider.kind,
          holdReference: `training:${randomUUID()}`,
          referenceImageIds: request.referenceImageIds,
          imageKeys: [],
        }),
      );
    } catch (error) {
      if (
        error instanceof QueryFailedError &&
        (error.driverError as { constraint?: string }).constraint === ONE_ACTIVE_PER_USER
      ) {
        throw new DomainError('TRAINING.ALREADY_TRAINING', ALREADY_TRAINING);
      }
      throw error;
    }
  }

  /** b-d. The hold, the selfie locks and (Replicate) the zip: all idempotent for the same model. */
  private async prepare(model: CustomModel): Promise<Prepared> {
    const { id: modelId, userId } = model;
    const hold = await this.rpc
      .call(BillingRpc.reserveCredits, {
        userId,
        amount: TRAINING_COST,
        reference: model.holdReference,
        expiresInSeconds: this.config.TRAINING_HOLD_SECONDS,
      })
      .catch((error: unknown) => {
        if (hasCode(error, 'BILLING.INSUFFICIENT_CREDITS')) {
          throw new StepRefused(FailureReasons.insufficientCredits, error as DomainError);
        }
        throw error;
      });
    // A hold of this reference that was already resolved belongs to an attempt that ended.
    if (hold.status !== 'held') {
      throw new StepRefused(FailureReasons.notStarted, new DomainError('COMMON.INTERNAL', FailureReasons.notStarted));
    }

    const locked = await this.rpc
      .call(MediaRpc.lockSelfiesForTraining, { userId, modelId, imageIds: model.referenceImageIds })
      .catch((error: unknown) => {
        if (hasCode(error, 'COMMON.NOT_FOUND')) {
          throw new StepRefused(FailureReasons.selfiesGone, new DomainError('COMMON.NOT_FOUND', SELFIES_NOT_FOUND));
        }
        throw error;
      });
    const imageKeys = locked.images.map((image) => image.key);
    await this.dataSource.query(`UPDATE training.custom_models SET image_keys = $2, updated_at = now() WHERE id = $1`, [
      modelId,
      imageKeys,
    ]);
    model.imageKeys = imageKeys;

    if (this.provider.kind !== 'replicate') return { imageKeys };
    const archive = await this.rpc.call(MediaRpc.createTrainingArchive, {
      userId,
      modelId,
      expiresInSeconds: this.config.TRAINING_ARCHIVE_TTL_SECONDS,
    });
    if (!archive.url) {
      throw new Error('Media gave no URL for the training images: give media S3 storage or a PUBLIC_URL');
    }
    return { imageKeys, imagesZipUrl: archive.url };
  }

  /**
   * e. The provider's training, then 'training' with TrainingStarted. A provider that cannot
   * start it fails the model (TrainingFailed gives the credits and selfies back) and the caller
   * hears 502; when resuming, the caller decides (`onProviderError: 'throw'`).
   */
  private async start(
    model: CustomModel,
    prepared: Prepared,
    onProviderError: 'fail' | 'throw' = 'fail',
  ): Promise<CustomModel> {
    let training: Training;
    try {
      training = await this.provider.startTraining({
        modelId: model.id,
        userId: model.userId,
        triggerWord: model.triggerWord,
        imageKeys: prepared.imageKeys,
        // The same attempt yields the same training, even from another process (local adapter).
        startedAt: model.createdAt,
        ...(prepared.imagesZipUrl ? { imagesZipUrl: prepared.imagesZipUrl } : {}),
        ...(this.provider.kind === 'replicate' ? { webhookUrl: this.webhookUrl(model.id) } : {}),
      });
    } catch (error) {
      if (onProviderError === 'throw') throw error;
      this.logger.error(`The provider did not start the training of model ${model.id}: ${(error as Error).message}`);
      await this.transitions.fail(model.id, 'pending', FailureReasons.providerUnavailable);
      throw new DomainError('TRAINING.PROVIDER_UNAVAILABLE', PROVIDER_UNAVAILABLE);
    }

    const started = await this.transitions.started(model, training);
    if (!started) return this.afterLostRace(model, training);
    this.logger.log(`Model ${model.id} is training (${this.provider.kind} training ${training.id})`);
    if (isFinished(training.status)) return (await this.transitions.resolve(model.id, training)) ?? started;
    return started;
  }

  /**
   * The model left 'pending' while we started it (failed by someone else, or deleted with its
   * owner's account): our training goes, and with a deleted model what the provider made for it.
   */
  private async afterLostRace(model: CustomModel, training: Training): Promise<CustomModel> {
    const current = await this.dataSource.getRepository(CustomModel).findOneBy({ id: model.id });
    if (!current) {
      await this.erasure
        .eraseAtProvider({
          userId: model.userId,
          provider: this.provider.kind,
          trainingIds: isFinished(training.status) ? [] : [training.id],
          destinations: training.destination ? [training.destination] : [],
        })
        .catch((error: Error) =>
          this.logger.error(`Training ${training.id} of deleted model ${model.id} is left behind: ${error.message}`),
        );
      throw new DomainError('COMMON.NOT_FOUND', ACCOUNT_GONE);
    }
    if (current.trainingJobId !== training.id && !isFinished(training.status)) {
      await this.provider
        .cancelTraining(training.id)
        .catch((error: Error) =>
          this.logger.warn(`Cancelling orphan training ${training.id} failed: ${error.message}`),
        );
    }
    return current;
  }

  /**
   * Takes back what a failed start did and removes the row. When that cannot be done now, the
   * model fails instead: TrainingFailed makes billing and media undo it as soon as they can.
   */
  private async undo(model: CustomModel, error: unknown): Promise<void> {
    const reserved = !(error instanceof StepRefused && hasCode(error.callerError, 'BILLING.INSUFFICIENT_CREDITS'));
    try {
      if (reserved) {
        await this.rpc.call(BillingRpc.releaseCredits, { reference: model.holdReference }).catch((release) => {
          if (!hasCode(release, 'BILLING.HOLD_NOT_FOUND')) throw release;
        });
        await this.rpc.call(MediaRpc.releaseSelfies, { userId: model.userId, modelId: model.id });
      }
      await this.dataSource.query(`DELETE FROM training.custom_models WHERE id = $1 AND status = 'pending'`, [
        model.id,
      ]);
    } catch (undoError) {
      this.logger.warn(
        `Undoing the start of model ${model.id} failed (${(undoError as Error).message}); failing it instead`,
      );
      const reason = error instanceof StepRefused ? error.reason : FailureReasons.notStarted;
      await this.transitions
        .fail(model.id, 'pending', reason)
        .catch((failError: Error) =>
          this.logger.error(`Failing model ${model.id} failed too; the reconciler will: ${failError.message}`),
        );
    }
  }

  private webhookUrl(modelId: number): string {
    return `${this.config.PUBLIC_URL}/api/webhooks/replicate?model=${modelId}`;
  }
}
