import { APP_CONFIG, NatsModule, natsSettingsOf } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AdminController } from './admin/admin.controller.js';
import { AccessTokens } from './auth/access-tokens.js';
import { AdminGuard } from './auth/admin.guard.js';
import { AppConfigController } from './app-config/app-config.controller.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthSessionService } from './auth/auth-session.service.js';
import { PasswordsController } from './auth/passwords.controller.js';
import { PasswordsService } from './auth/passwords.service.js';
import { AuthRateLimitGuard, RateLimiter } from './auth/rate-limiter.js';
import { SessionCookies } from './auth/session-cookies.js';
import { SessionGuard } from './auth/session.guard.js';
import { SessionRevocationList } from './auth/session-revocation-list.js';
import { UserRateLimitGuard } from './auth/user-rate-limit.guard.js';
import { BillingController } from './billing/billing.controller.js';
import { StripeWebhookController } from './billing/stripe-webhook.controller.js';
import { DocsController } from './docs/docs.controller.js';
import { EventStreams } from './events/event-streams.js';
import { EventsController } from './events/events.controller.js';
import { UserEventBus } from './events/user-event-bus.js';
import type { GatewayConfig } from './gateway.config.js';
import { HealthController } from './health/health.controller.js';
import { HttpErrorFilter } from './http/http-errors.js';
import { MediaController } from './media/media.controller.js';
import { MediaHttpClient } from './media/media-http.client.js';
import { GenerationController } from './generation/generation.controller.js';
import { ReplicateWebhookController } from './training/replicate-webhook.controller.js';
import { TrainingController } from './training/training.controller.js';
import { CurrentUserService } from './users/current-user.service.js';
import { UsersController } from './users/users.controller.js';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [NatsModule.forRoot(natsSettingsOf(config, 'gateway'), config.RPC_TIMEOUT_MS)],
      controllers: [
        AuthController,
        PasswordsController,
        UsersController,
        BillingController,
        StripeWebhookController,
        MediaController,
        TrainingController,
        GenerationController,
        EventsController,
        AdminController,
        ReplicateWebhookController,
        HealthController,
        DocsController,
        AppConfigController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        SessionCookies,
        SessionRevocationList,
        AccessTokens,
        SessionGuard,
        AdminGuard,
        RateLimiter,
        AuthRateLimitGuard,
        UserRateLimitGuard,
        AuthSessionService,
        PasswordsService,
        CurrentUserService,
        MediaHttpClient,
        UserEventBus,
        EventStreams,
      ],
    };
  }
}
