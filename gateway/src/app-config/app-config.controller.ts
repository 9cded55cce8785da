import { type AppConfig, appConfigRoute } from '@likeness/contracts';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Controller, Get, Inject } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config.js';

@Controller()
export class AppConfigController {
  private readonly appConfig: AppConfig;

  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    this.appConfig = { supportEmail: config.SUPPORT_EMAIL };
  }

  @Get(appConfigRoute.path)
  get(): AppConfig {
    return this.appConfig;
  }
}
