import { type AppConfig, appConfigRoute, type SocialLinkKind } from '@likeness/contracts';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Controller, Get, Inject } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config.js';

/** The footer's social links this deployment configured, in SPEC §2's order. */
export function socialLinksOf(config: GatewayConfig): AppConfig['socialLinks'] {
  const urls: Record<SocialLinkKind, string | undefined> = {
    microblog: config.SOCIAL_MICROBLOG_URL,
    photos: config.SOCIAL_PHOTOS_URL,
    code: config.SOCIAL_CODE_URL,
  };
  return Object.entries(urls).flatMap(([kind, url]) => (url ? [{ kind: kind as SocialLinkKind, url }] : []));
}

@Controller()
export class AppConfigController {
  private readonly appConfig: AppConfig;

  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    this.appConfig = { supportEmail: config.SUPPORT_EMAIL, socialLinks: socialLinksOf(config) };
  }

  @Get(appConfigRoute.path)
  get(): AppConfig {
    return this.appConfig;
  }
}
