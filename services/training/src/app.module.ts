import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { TrainingConfig } from './training.config.js';
import { trainingDatabase } from './database/training-database.js';

@Module({})
export class AppModule {
  static forRoot(config: TrainingConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'training', config, database: trainingDatabase(config) })],
    };
  }
}
