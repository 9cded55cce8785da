import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { type MediaConfig, mediaConfigSchema } from './media.config.js';
import { mediaDatabase } from './database/media-database.js';

export const mediaService: ServiceDefinition<MediaConfig> = {
  service: 'media',
  configSchema: mediaConfigSchema,
  database: mediaDatabase,
  module: (config) => AppModule.forRoot(config),
};
