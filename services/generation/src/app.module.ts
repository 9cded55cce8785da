import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { GenerationConfig } from './generation.config.js';
import { generationDatabase } from './database/generation-database.js';

@Module({})
export class AppModule {
  static forRoot(config: GenerationConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'generation', config, database: generationDatabase(config) })],
    };
  }
}
