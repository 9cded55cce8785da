import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { AuthConfig } from './auth.config.js';
import { authDatabase } from './database/auth-database.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { SessionsService } from './sessions/sessions.service.js';
import { AdminBootstrap } from './users/admin-bootstrap.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UsersController } from './users/users.controller.js';
import { UsersService } from './users/users.service.js';

@Module({})
export class AppModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'auth', config, database: authDatabase(config) })],
      controllers: [UsersController, SessionsController],
      providers: [PasswordHasher, UsersService, SessionsService, AdminBootstrap],
    };
  }
}
