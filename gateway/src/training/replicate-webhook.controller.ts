import { GenerationRpc, MAX_STORED_INTEGER, TrainingRpc, replicateWebhookRoute } from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Controller, HttpCode, Post, Query, type RawBodyRequest, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const jobIdSchema = z.uuid();

/**
 * Replicate signs the exact bytes it sent (standard webhooks), so the owner gets the raw body:
 * generation when the URL names a job (a prediction), training otherwise.
 */
@Controller()
export class ReplicateWebhookController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(replicateWebhookRoute.path)
  @HttpCode(200)
  receive(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Query('model') model: string | undefined,
    @Query('job') job: string | undefined,
  ) {
    if (!request.rawBody) {
      throw new DomainError('TRAINING.WEBHOOK_INVALID', 'A Replicate webhook needs its JSON body.');
    }
    const delivery = {
      payload: request.rawBody.toString('utf8'),
      headers: {
        'webhook-id': header(request, 'webhook-id'),
        'webhook-timestamp': header(request, 'webhook-timestamp'),
        'webhook-signature': header(request, 'webhook-signature'),
      },
    };
    if (job !== undefined) {
      const jobId = jobIdSchema.safeParse(job);
      if (!jobId.success) throw new DomainError('GENERATION.WEBHOOK_INVALID', 'The webhook names no generation job.');
      return this.rpc.call(GenerationRpc.handlePredictionWebhook, { ...delivery, jobId: jobId.data });
    }
    const modelId = model && /^[1-9][0-9]{0,9}$/.test(model) ? Number(model) : undefined;
    return this.rpc.call(TrainingRpc.handleReplicateWebhook, {
      ...delivery,
      ...(modelId !== undefined && modelId <= MAX_STORED_INTEGER ? { modelId } : {}),
    });
  }
}
