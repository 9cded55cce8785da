import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type AuthConfig, authConfigSchema } from './auth.config.js';
import { authDatabase } from './database/auth-database.js';

export const authService: ServiceDefinition<AuthConfig> = {
  service: 'auth',
  configSchema: authConfigSchema,
  database: authDatabase,
  module: (config) => AppModule.forRoot(config),
};
