import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { MediaConfig } from './media.config.js';
import { mediaDatabase } from './database/media-database.js';

@Module({})
export class AppModule {
  static forRoot(config: MediaConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'media', config, database: mediaDatabase(config) })],
    };
  }
}
