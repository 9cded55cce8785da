import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type ReportingConfig, reportingConfigSchema } from './reporting.config.js';
import { reportingDatabase } from './database/reporting-database.js';

export const reportingService: ServiceDefinition<ReportingConfig> = {
  service: 'reporting',
  configSchema: reportingConfigSchema,
  database: reportingDatabase,
  module: (config) => AppModule.forRoot(config),
};
