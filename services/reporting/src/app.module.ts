import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { ReportingConfig } from './reporting.config.js';
import { reportingDatabase } from './database/reporting-database.js';
import { UserDeletedListener } from './users/user-deleted.listener.js';
import { UserRegisteredListener } from './users/user-registered.listener.js';

@Module({})
export class AppModule {
  static forRoot(config: ReportingConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'reporting', config, database: reportingDatabase(config) })],
      providers: [UserRegisteredListener, UserDeletedListener],
    };
  }
}
