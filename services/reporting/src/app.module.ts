import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { ReportingConfig } from './reporting.config.js';
import { reportingDatabase } from './database/reporting-database.js';
import { AdminController } from './admin/admin.controller.js';
import { AdminQueries } from './admin/admin-queries.service.js';
import { ReadModelListeners } from './read-models/read-model.listeners.js';

@Module({})
export class AppModule {
  static forRoot(config: ReportingConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'reporting', config, database: reportingDatabase(config) })],
      controllers: [AdminController],
      providers: [ReadModelListeners, AdminQueries],
    };
  }
}
