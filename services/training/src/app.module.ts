import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import { trainingDatabase } from './database/training-database.js';
import { EraseProviderModelsProcessor } from './erasure/erase-provider-models.processor.js';
import { ModelErasure } from './erasure/model-erasure.service.js';
import { UserDeletedListener } from './erasure/user-deleted.listener.js';
import { ModelLeases } from './models/model-leases.js';
import { ModelTransitions } from './models/model-transitions.js';
import { ModelsService } from './models/models.service.js';
import { TrainingReconciler } from './models/training-reconciler.js';
import { TrainingService } from './models/training.service.js';
import { trainingProvider } from './providers/training-provider.provider.js';
import { TrainingController } from './training.controller.js';
import type { TrainingConfig } from './training.config.js';
import { ReplicateWebhooksService } from './webhooks/replicate-webhooks.service.js';
import { SnapshotController } from './snapshot/snapshot.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: TrainingConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'training', config, database: trainingDatabase(config) })],
      controllers: [SnapshotController, TrainingController],
      providers: [
        trainingProvider,
        ModelLeases,
        ModelTransitions,
        TrainingService,
        ModelsService,
        TrainingReconciler,
        ReplicateWebhooksService,
        ModelErasure,
        UserDeletedListener,
        EraseProviderModelsProcessor,
      ],
    };
  }
}
