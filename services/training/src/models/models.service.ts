import type { CustomModel as CustomModelView, InferenceConfig, RpcResponse, TrainingRpc } from '@likeness/contracts';
import type { TrainingProvider } from '@likeness/inference';
import { DomainError, queryRows } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TRAINING_PROVIDER } from '../providers/training-provider.provider.js';
import { CustomModel } from './custom-model.entity.js';
import { type CustomModelRow, fromRow, toModelView } from './custom-model.view.js';

export const MODEL_NOT_FOUND = 'That model was not found.';
export const MODEL_TRAINING = 'This model is still training. You can delete it once the training has finished.';
export const MODEL_NOT_READY = 'This model is not ready yet. You can use it once its training has completed.';

/** A person's models: the list, deleting one, and what generation needs to run one. */
@Injectable()
export class ModelsService {
  private readonly logger = new Logger(ModelsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(TRAINING_PROVIDER) private readonly provider: TrainingProvider,
  ) {}

  /** Newest first. */
  async list(userId: number): Promise<CustomModelView[]> {
    const models = await this.dataSource.getRepository(CustomModel).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return models.map(toModelView);
  }

  /**
   * Deletes a finished model (refused while it trains: the saga still needs the row). Ours goes
   * first; the provider's copy after, and a provider that fails to delete it is logged, not the
   * person's problem.
   */
  async delete(userId: number, id: number): Promise<RpcResponse<typeof TrainingRpc.deleteModel>> {
    const model = await this.dataSource.transaction(async (manager) => {
      const [row] = await queryRows<CustomModelRow>(
        manager,
        `SELECT * FROM training.custom_models WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
      if (!row) throw new DomainError('COMMON.NOT_FOUND', MODEL_NOT_FOUND);
      if (row.status === 'pending' || row.status === 'training') {
        throw new DomainError('TRAINING.MODEL_TRAINING', MODEL_TRAINING);
      }
      await manager.query(`DELETE FROM training.custom_models WHERE id = $1`, [id]);
      return fromRow(row);
    });
    if (model.providerModel && model.provider === this.provider.kind) {
      try {
        await this.provider.deleteModel(model.providerModel);
      } catch (error) {
        this.logger.error(
          `Model ${model.id} is deleted, but the provider's ${model.providerModel} is left behind: ${(error as Error).message}`,
        );
      }
    }
    return { deleted: true };
  }

  /** A completed model of the person's, as a prediction runs it. */
  async runnable(userId: number, id: number): Promise<RpcResponse<typeof TrainingRpc.getRunnableModel>> {
    const model = await this.dataSource.getRepository(CustomModel).findOneBy({ id, userId });
    if (!model) throw new DomainError('COMMON.NOT_FOUND', MODEL_NOT_FOUND);
    if (model.status !== 'completed' || !model.version)
      throw new DomainError('TRAINING.MODEL_NOT_READY', MODEL_NOT_READY);
    return { id: model.id, triggerWord: model.triggerWord, version: model.version, imageKeys: model.imageKeys };
  }

  inferenceConfig(): InferenceConfig {
    return { provider: this.provider.kind };
  }
}
