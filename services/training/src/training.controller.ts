import { type RpcRequest, TrainingRpc } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { ModelsService } from './models/models.service.js';
import { TrainingService } from './models/training.service.js';
import { ReplicateWebhooksService } from './webhooks/replicate-webhooks.service.js';

@Controller()
export class TrainingController {
  constructor(
    private readonly trainings: TrainingService,
    private readonly models: ModelsService,
    private readonly webhooks: ReplicateWebhooksService,
  ) {}

  @RpcHandler(TrainingRpc.trainModel)
  train(request: RpcRequest<typeof TrainingRpc.trainModel>) {
    return this.trainings.train(request);
  }

  @RpcHandler(TrainingRpc.listModels)
  list(request: RpcRequest<typeof TrainingRpc.listModels>) {
    return this.models.list(request.userId);
  }

  @RpcHandler(TrainingRpc.deleteModel)
  delete(request: RpcRequest<typeof TrainingRpc.deleteModel>) {
    return this.models.delete(request.userId, request.id);
  }

  @RpcHandler(TrainingRpc.getRunnableModel)
  runnable(request: RpcRequest<typeof TrainingRpc.getRunnableModel>) {
    return this.models.runnable(request.userId, request.id);
  }

  @RpcHandler(TrainingRpc.getInferenceConfig)
  inferenceConfig() {
    return this.models.inferenceConfig();
  }

  @RpcHandler(TrainingRpc.handleReplicateWebhook)
  replicateWebhook(request: RpcRequest<typeof TrainingRpc.handleReplicateWebhook>) {
    return this.webhooks.handle(request);
  }
}
