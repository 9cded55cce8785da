import { MAX_STORED_INTEGER, TrainingRpc, replicateWebhookRoute } from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Controller, HttpCode, Post, Query, type RawBodyRequest, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Replicate signs the exact bytes it sent (standard webhooks), so training gets the raw body. */
@Controller()
export class ReplicateWebhookController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(replicateWebhookRoute.path)
  @HttpCode(200)
  receive(@Req() request: RawBodyRequest<FastifyRequest>, @Query('model') model: string | undefined) {
    if (!request.rawBody) {
      throw new DomainError('TRAINING.WEBHOOK_INVALID', 'A Replicate webhook needs its JSON body.');
    }
    const modelId = model && /^[1-9][0-9]{0,9}$/.test(model) ? Number(model) : undefined;
    return this.rpc.call(TrainingRpc.handleReplicateWebhook, {
      payload: request.rawBody.toString('utf8'),
      headers: {
        'webhook-id': header(request, 'webhook-id'),
        'webhook-timestamp': header(request, 'webhook-timestamp'),
        'webhook-signature': header(request, 'webhook-signature'),
      },
      ...(modelId !== undefined && modelId <= MAX_STORED_INTEGER ? { modelId } : {}),
    });
  }
}
