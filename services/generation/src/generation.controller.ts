import { GenerationRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { JobsService } from './jobs/jobs.service.js';
import { PredictionWebhooks } from './webhooks/prediction-webhooks.service.js';

@Controller()
export class GenerationController {
  constructor(
    private readonly jobs: JobsService,
    private readonly webhooks: PredictionWebhooks,
  ) {}

  @RpcHandler(GenerationRpc.generateAvatar)
  generate(request: RpcRequest<typeof GenerationRpc.generateAvatar>) {
    return this.jobs.generate(request);
  }

  @RpcHandler(GenerationRpc.listJobs)
  list(request: RpcRequest<typeof GenerationRpc.listJobs>) {
    return this.jobs.list(request.userId);
  }

  @RpcHandler(GenerationRpc.getJob)
  get(request: RpcRequest<typeof GenerationRpc.getJob>) {
    return this.jobs.get(request.userId, request.jobId);
  }

  @RpcHandler(GenerationRpc.handlePredictionWebhook)
  predictionWebhook(request: RpcRequest<typeof GenerationRpc.handlePredictionWebhook>) {
    return this.webhooks.handle(request);
  }
}
