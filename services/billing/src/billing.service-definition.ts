import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type BillingConfig, billingConfigSchema } from './billing.config.js';
import { billingDatabase } from './database/billing-database.js';

export const billingService: ServiceDefinition<BillingConfig> = {
  service: 'billing',
  configSchema: billingConfigSchema,
  database: billingDatabase,
  module: (config) => AppModule.forRoot(config),
};
