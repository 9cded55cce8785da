import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type TrainingConfig, trainingConfigSchema } from './training.config.js';
import { trainingDatabase } from './database/training-database.js';

export const trainingService: ServiceDefinition<TrainingConfig> = {
  service: 'training',
  configSchema: trainingConfigSchema,
  database: trainingDatabase,
  module: (config) => AppModule.forRoot(config),
};
