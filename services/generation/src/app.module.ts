import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import { generationDatabase } from './database/generation-database.js';
import { CancelUserPredictionsProcessor } from './erasure/cancel-user-predictions.processor.js';
import { JobErasure } from './erasure/job-erasure.service.js';
import { UserDeletedListener } from './erasure/user-deleted.listener.js';
import { GenerationController } from './generation.controller.js';
import { type GenerationConfig, runsApi, runsWorkers } from './generation.config.js';
import { AbandonedJobsSweeper } from './jobs/abandoned-jobs-sweeper.js';
import { JobProgress } from './jobs/job-progress.js';
import { JobTransitions } from './jobs/job-transitions.js';
import { JobsService } from './jobs/jobs.service.js';
import {
  ModelImages,
  StorageShutdown,
  objectStorageProvider,
  predictionProvider,
} from './providers/prediction-provider.provider.js';
import { GenerationJobProcessor } from './workers/generation-job.processor.js';
import { JobRunner } from './workers/job-runner.js';
import { providerRateLimiter } from './workers/workers.providers.js';
import { SnapshotController } from './snapshot/snapshot.controller.js';
import { PredictionWakeups } from './webhooks/prediction-wakeups.js';
import { PredictionWebhooks } from './webhooks/prediction-webhooks.service.js';

@Module({})
export class AppModule {
  static forRoot(config: GenerationConfig): DynamicModule {
    const api = runsApi(config);
    const workers = runsWorkers(config);
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'generation', config, database: generationDatabase(config) })],
      controllers: api ? [GenerationController, SnapshotController] : [],
      providers: [
        JobTransitions,
        ...(api ? [JobsService, AbandonedJobsSweeper, JobErasure, UserDeletedListener, PredictionWebhooks] : []),
        // Only workers touch storage and the provider.
        ...(workers
          ? [
              objectStorageProvider,
              StorageShutdown,
              ModelImages,
              predictionProvider,
              providerRateLimiter,
              PredictionWakeups,
              JobProgress,
              JobRunner,
              GenerationJobProcessor,
              CancelUserPredictionsProcessor,
            ]
          : []),
      ],
    };
  }
}
