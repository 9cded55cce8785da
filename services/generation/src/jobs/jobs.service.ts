import { randomUUID } from 'node:crypto';
import {
  BillingRpc,
  GENERATION_COST,
  GENERATION_PRIORITY_LANE,
  GenerationEvents,
  type GenerationJob as GenerationJobView,
  type GenerationRpc,
  type RpcRequest,
  TrainingRpc,
  runGenerationJob,
} from '@likeness/contracts';
import { APP_CONFIG, DomainError, OutboxService, RpcClient } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type GenerationConfig, predictionProviderKind } from '../generation.config.js';
import { GenerationJob } from './generation-job.entity.js';
import { toJobView } from './generation-job.view.js';

export const JOB_NOT_FOUND = 'That generation job was not found.';

/**
 * The request side of generation: a run is paid for before it is queued. The hold comes first
 * (billing refuses what the balance cannot cover, atomically, so concurrent requests never
 * overdraw); then the job, its GenerationRequested event and its queue message commit together.
 */
@Injectable()
export class JobsService {
  private readonly logger = new Logger(JobsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxService,
  ) {}

  async generate(request: RpcRequest<typeof GenerationRpc.generateAvatar>): Promise<{ jobId: string }> {
    const { userId, customModelId, promptText, numOutputs, negativePrompt } = request;
    const jobId = randomUUID();
    const holdReference = `generation:${jobId}`;
    // Both at once (a request waits for neither alone). The model's refusal comes first: 404 for
    // someone else's model, 409 while it is not ready, in training's words.
    const [modelCheck, holdCheck, priorityCheck] = await Promise.allSettled([
      this.rpc.call(TrainingRpc.getRunnableModel, { userId, id: customModelId }),
      this.rpc.call(BillingRpc.reserveCredits, {
        userId,
        amount: GENERATION_COST,
        reference: holdReference,
        expiresInSeconds: this.config.GENERATION_HOLD_SECONDS,
      }),
      this.rpc.call(BillingRpc.getGenerationPriority, { userId }),
    ]);
    const insufficient =
      holdCheck.status === 'rejected' &&
      holdCheck.reason instanceof DomainError &&
      holdCheck.reason.code === 'BILLING.INSUFFICIENT_CREDITS';
    if (modelCheck.status === 'rejected' || holdCheck.status === 'rejected') {
      // A hold that was made, or that timed out on the way and may have been: give it back.
      if (!insufficient) await this.release(holdReference);
      throw modelCheck.status === 'rejected' ? modelCheck.reason : (holdCheck as PromiseRejectedResult).reason;
    }
    const model = modelCheck.value;
    const lane = this.laneOf(priorityCheck);

    try {
      // The row's created_at and the GenerationRequested's time are the same moment.
      const createdAt = new Date();
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(GenerationJob, {
          id: jobId,
          createdAt,
          updatedAt: createdAt,
          userId,
          customModelId,
          promptText,
          numOutputs,
          status: 'pending',
          provider: predictionProviderKind(this.config),
          modelVersion: model.version,
          holdReference,
          settings: negativePrompt ? { negativePrompt } : {},
        });
        await this.outbox.add(
          manager,
          GenerationEvents.GenerationRequested,
          { jobId, userId, holdReference, customModelId, promptText, numOutputs },
          { occurredAt: createdAt },
        );
        await this.outbox.enqueue(manager, runGenerationJob, { jobId }, { lane });
      });
    } catch (error) {
      await this.release(holdReference);
      throw error;
    }
    return { jobId };
  }

  async list(userId: number): Promise<GenerationJobView[]> {
    const jobs = await this.dataSource
      .getRepository(GenerationJob)
      .find({ where: { userId }, order: { createdAt: 'DESC', id: 'ASC' } });
    return jobs.map(toJobView);
  }

  async get(userId: number, jobId: string): Promise<GenerationJobView> {
    const job = await this.dataSource.getRepository(GenerationJob).findOneBy({ id: jobId, userId });
    if (!job) throw new DomainError('COMMON.NOT_FOUND', JOB_NOT_FOUND);
    return toJobView(job);
  }

  /** Priority the account has now; if billing could not say, the job waits in the standard lane. */
  private laneOf(priorityCheck: PromiseSettledResult<{ priority: boolean }>): string | undefined {
    if (priorityCheck.status === 'rejected') {
      this.logger.warn(`Priority unknown, queued as standard: ${(priorityCheck.reason as Error).message}`);
      return undefined;
    }
    return priorityCheck.value.priority ? GENERATION_PRIORITY_LANE : undefined;
  }

  private async release(reference: string): Promise<void> {
    await this.rpc.call(BillingRpc.releaseCredits, { reference }).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'BILLING.HOLD_NOT_FOUND') return;
      this.logger.warn(`Releasing hold ${reference} failed; billing's sweeper will: ${(error as Error).message}`);
    });
  }
}
