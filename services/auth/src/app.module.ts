import { ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import type { AuthConfig } from './auth.config.js';
import { authDatabase } from './database/auth-database.js';
import { AccountEventsListener } from './mail/account-events.listener.js';
import { AccountMailProcessor } from './mail/account-mail.processor.js';
import { AccountMails } from './mail/account-mails.js';
import { MailSender } from './mail/mail-sender.js';
import { MailerShutdown, mailContextProvider, mailerProvider } from './mail/mailer.provider.js';
import { PasswordResetMailProcessor } from './passwords/password-reset-mail.processor.js';
import { PasswordResetsService } from './passwords/password-resets.service.js';
import { PasswordsController } from './passwords/passwords.controller.js';
import { PasswordsService } from './passwords/passwords.service.js';
import { ResetLimits } from './passwords/reset-limits.js';
import { DeviceTokens } from './sessions/device-tokens.js';
import { LoginLimits } from './sessions/login-limits.js';
import { SessionRevocations } from './sessions/session-revocations.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { SessionsService } from './sessions/sessions.service.js';
import { AccountDeletionService } from './users/account-deletion.service.js';
import { AdminBootstrap } from './users/admin-bootstrap.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UsersController } from './users/users.controller.js';
import { UsersService } from './users/users.service.js';
import { SnapshotController } from './snapshot/snapshot.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'auth', config, database: authDatabase(config) })],
      controllers: [SnapshotController, UsersController, SessionsController, PasswordsController],
      providers: [
        PasswordHasher,
        UsersService,
        SessionsService,
        LoginLimits,
        DeviceTokens,
        SessionRevocations,
        AdminBootstrap,
        AccountDeletionService,
        mailerProvider,
        mailContextProvider,
        MailerShutdown,
        MailSender,
        AccountMails,
        AccountMailProcessor,
        AccountEventsListener,
        PasswordsService,
        PasswordResetsService,
        PasswordResetMailProcessor,
        ResetLimits,
      ],
    };
  }
}
