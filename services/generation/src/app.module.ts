import { APP_CONFIG, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, ServiceKitModule } from '@likeness/nest-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { generationDatabase } from './database/generation-database.js';
import { GenerationController } from './generation.controller.js';
import { type GenerationConfig, runsApi, runsWorkers } from './generation.config.js';
import { AbandonedJobsSweeper } from './jobs/abandoned-jobs-sweeper.js';
import { JobTransitions } from './jobs/job-transitions.js';
import { JobsService } from './jobs/jobs.service.js';
import {
  ModelImages,
  StorageShutdown,
  objectStorageProvider,
  predictionProvider,
} from './providers/prediction-provider.provider.js';
import { ensureJobsStream } from './queue/jobs-stream.js';
import { GenerationWorkers } from './workers/generation-workers.js';
import { JobRunner } from './workers/job-runner.js';
import { providerRateLimiter } from './workers/workers.providers.js';

/** The work queue exists before the first job is queued (the outbox relay cannot publish without it). */
@Injectable()
class JobsStreamSetup implements OnApplicationBootstrap {
  private readonly logger = new Logger('JobsStream');

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A broker that is still starting must not stop the service: the relay retries meanwhile.
    await ensureJobsStream(await jetstreamManager(this.nats), this.settings).catch((error: Error) =>
      this.logger.warn(`The JOBS stream is not there yet: ${error.message}`),
    );
    this.logger.log(`Generation runs as ${this.config.GENERATION_ROLE}`);
  }
}

@Module({})
export class AppModule {
  static forRoot(config: GenerationConfig): DynamicModule {
    const api = runsApi(config);
    const workers = runsWorkers(config);
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'generation', config, database: generationDatabase(config) })],
      controllers: api ? [GenerationController] : [],
      providers: [
        JobsStreamSetup,
        JobTransitions,
        ...(api ? [JobsService, AbandonedJobsSweeper] : []),
        // Only workers touch storage and the provider.
        ...(workers
          ? [
              objectStorageProvider,
              StorageShutdown,
              ModelImages,
              predictionProvider,
              providerRateLimiter,
              JobRunner,
              GenerationWorkers,
            ]
          : []),
      ],
    };
  }
}
