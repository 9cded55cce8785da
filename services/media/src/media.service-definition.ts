import type { ServiceDefinition } from '@likeness/nest-kit';
import { AppModule } from './app.module.js';
import { mediaDatabase } from './database/media-database.js';
import { registerInternalRoutes } from './internal-http/internal-routes.js';
import { type MediaConfig, mediaConfigSchema } from './media.config.js';

export const mediaService: ServiceDefinition<MediaConfig> = {
  service: 'media',
  configSchema: mediaConfigSchema,
  database: mediaDatabase,
  module: (config) => AppModule.forRoot(config),
  // Image bytes travel over HTTP, beside /health: see internal-http/.
  configureHttp: (app, config) => registerInternalRoutes(app, config),
};
