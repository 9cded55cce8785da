import type { RpcRequest, TrainingRpc } from '@likeness/contracts';
import {
  ProviderUnavailableError,
  type ReplicateWebhookVerdict,
  TrainingNotFoundError,
  type TrainingProvider,
  isFinished,
  verifyReplicateWebhook,
} from '@likeness/inference';
import { APP_CONFIG, DomainError, queryRows } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CustomModel } from '../models/custom-model.entity.js';
import { ModelTransitions } from '../models/model-transitions.js';
import { TRAINING_PROVIDER } from '../providers/training-provider.provider.js';
import type { TrainingConfig } from '../training.config.js';

type Refusal = Extract<ReplicateWebhookVerdict, { ok: false }>['reason'];

const REFUSALS: Record<Refusal | 'not-expected' | 'not-json', string> = {
  'missing-headers': 'The webhook is missing its signature headers.',
  'bad-signature': 'The webhook signature does not match.',
  stale: 'The webhook timestamp is too old or too far in the future.',
  'not-expected': 'Replicate webhooks are not expected: Replicate is not configured.',
  'not-json': 'The webhook body is not JSON.',
};

const TERMINAL_STATUSES = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/**
 * Replicate's training updates. A webhook is only a hint: after its signature and timestamp are
 * checked, the outcome is read again from Replicate's API (through the adapter, which is the one
 * place that knows Replicate's shapes), and the model is resolved in the same transaction that
 * records the webhook's id, so a replay changes nothing. A webhook that never comes is the
 * reconciler's job.
 */
@Injectable()
export class ReplicateWebhooksService {
  private readonly logger = new Logger(ReplicateWebhooksService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: TrainingConfig,
    @Inject(TRAINING_PROVIDER) private readonly provider: TrainingProvider,
    private readonly transitions: ModelTransitions,
  ) {}

  async handle(request: RpcRequest<typeof TrainingRpc.handleReplicateWebhook>): Promise<{ received: true }> {
    const secret = this.config.REPLICATE_WEBHOOK_SECRET;
    if (this.provider.kind !== 'replicate' || !secret) throw refused('not-expected');
    const verdict = verifyReplicateWebhook({
      secret,
      headers: request.headers,
      body: request.payload,
      toleranceSeconds: this.config.REPLICATE_WEBHOOK_TOLERANCE_SECONDS,
    });
    if (!verdict.ok) {
      this.logger.warn(`Refused a Replicate webhook: ${verdict.reason}`);
      throw refused(verdict.reason);
    }
    const webhookId = verdict.id;
    if (await this.seen(webhookId)) return { received: true };

    const body = parse(request.payload);
    const trainingId = typeof body['id'] === 'string' ? body['id'] : undefined;
    const model = trainingId ? await this.modelOf(trainingId, request.modelId) : undefined;
    // Progress, or news of something that is not (or no longer) ours to resolve: noted, nothing to do.
    if (!trainingId || !model || model.status !== 'training' || !TERMINAL_STATUSES.has(String(body['status']))) {
      await this.record(webhookId);
      return { received: true };
    }

    let training;
    try {
      training = await this.provider.getTraining(trainingId);
    } catch (error) {
      if (error instanceof TrainingNotFoundError) {
        this.logger.warn(`A webhook names training ${trainingId}, which Replicate does not know`);
        await this.record(webhookId);
        return { received: true };
      }
      // Replicate retries a webhook we did not accept; the reconciler catches up otherwise.
      if (error instanceof ProviderUnavailableError) {
        throw new DomainError('TRAINING.PROVIDER_UNAVAILABLE', 'Replicate could not be asked about the training.');
      }
      throw error;
    }
    if (!isFinished(training.status)) {
      await this.record(webhookId);
      return { received: true };
    }

    await this.dataSource.transaction(async (manager) => {
      const inserted = await queryRows<{ webhook_id: string }>(
        manager,
        `INSERT INTO training.webhook_deliveries (webhook_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING webhook_id`,
        [webhookId],
      );
      if (inserted.length === 0) return;
      const resolved = await this.transitions.resolve(model.id, training, manager);
      if (resolved) this.logger.log(`Model ${model.id} is ${resolved.status} (webhook ${webhookId})`);
    });
    return { received: true };
  }

  private async seen(webhookId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM training.webhook_deliveries WHERE webhook_id = $1`,
      [webhookId],
    );
    return rows.length > 0;
  }

  private async record(webhookId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO training.webhook_deliveries (webhook_id) VALUES ($1) ON CONFLICT DO NOTHING`,
      [webhookId],
    );
  }

  /** The model the training belongs to; the URL's `model` must agree when it is given. */
  private async modelOf(trainingId: string, modelId: number | undefined): Promise<CustomModel | undefined> {
    const model = await this.dataSource.getRepository(CustomModel).findOneBy({ trainingJobId: trainingId });
    if (!model || (modelId !== undefined && model.id !== modelId)) return undefined;
    return model;
  }
}

function refused(reason: keyof typeof REFUSALS): DomainError {
  return new DomainError('TRAINING.WEBHOOK_INVALID', REFUSALS[reason]);
}

function parse(payload: string): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(payload);
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Refused below.
  }
  throw refused('not-json');
}
