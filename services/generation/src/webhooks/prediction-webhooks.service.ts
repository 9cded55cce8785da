import type { GenerationRpc, RpcRequest } from '@likeness/contracts';
import { type ReplicateWebhookVerdict, verifyReplicateWebhook } from '@likeness/inference';
import { APP_CONFIG, DomainError, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '@likeness/nest-kit';
import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { GenerationConfig } from '../generation.config.js';
import { GenerationJob } from '../jobs/generation-job.entity.js';
import { predictionEndedSubject } from './prediction-ended.js';

type Refusal = Extract<ReplicateWebhookVerdict, { ok: false }>['reason'];

const REFUSALS: Record<Refusal | 'not-expected' | 'not-json', string> = {
  'missing-headers': 'The webhook is missing its signature headers.',
  'bad-signature': 'The webhook signature does not match.',
  stale: 'The webhook timestamp is too old or too far in the future.',
  'not-expected': 'Prediction webhooks are not expected: REPLICATE_WEBHOOK_SECRET is not set.',
  'not-json': 'The webhook body is not JSON.',
};

/**
 * Predictions' webhooks, verified as training's are (standard-webhooks signature and timestamp).
 * A webhook is only a hint: it wakes the worker waiting on the job's prediction, which reads the
 * outcome from the provider and ends the job by its one conditional transition, so a webhook
 * delivered any number of times, at once or late, ends the job once. One for a job that has ended,
 * or for a prediction that is not the job's, changes nothing.
 */
@Injectable()
export class PredictionWebhooks {
  private readonly logger = new Logger(PredictionWebhooks.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {}

  async handle(request: RpcRequest<typeof GenerationRpc.handlePredictionWebhook>): Promise<{ received: true }> {
    const secret = this.config.REPLICATE_WEBHOOK_SECRET;
    if (!secret) throw refused('not-expected');
    const verdict = verifyReplicateWebhook({
      secret,
      headers: request.headers,
      body: request.payload,
      toleranceSeconds: this.config.REPLICATE_WEBHOOK_TOLERANCE_SECONDS,
    });
    if (!verdict.ok) {
      this.logger.warn(`Refused a prediction webhook: ${verdict.reason}`);
      throw refused(verdict.reason);
    }
    const predictionId = predictionIdOf(request.payload);
    const job = await this.dataSource.getRepository(GenerationJob).findOneBy({ id: request.jobId });
    if (job?.status === 'pending' && (job.predictionId === null || job.predictionId === predictionId)) {
      this.nats.publish(predictionEndedSubject(this.settings, job.id));
    }
    return { received: true };
  }
}

function refused(reason: keyof typeof REFUSALS): DomainError {
  return new DomainError('GENERATION.WEBHOOK_INVALID', REFUSALS[reason]);
}

function predictionIdOf(payload: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    throw refused('not-json');
  }
  const id = body && typeof body === 'object' ? (body as Record<string, unknown>)['id'] : undefined;
  return typeof id === 'string' ? id : undefined;
}
