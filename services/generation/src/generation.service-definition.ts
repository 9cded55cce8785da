import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type GenerationConfig, generationConfigSchema, runsApi } from './generation.config.js';
import { generationDatabase } from './database/generation-database.js';

export const generationService: ServiceDefinition<GenerationConfig> = {
  service: 'generation',
  configSchema: generationConfigSchema,
  database: generationDatabase,
  module: (config) => AppModule.forRoot(config),
  // A worker-only process takes jobs from the queue and answers no requests.
  servesRpc: runsApi,
};
