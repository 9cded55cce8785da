import { APP_CONFIG, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '@likeness/nest-kit';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Provider } from '@nestjs/common';
import type { GenerationConfig } from '../generation.config.js';
import { ProviderRateLimiter } from './provider-rate-limiter.js';

export const PROVIDER_RATE_LIMITER = Symbol('PROVIDER_RATE_LIMITER');

export const providerRateLimiter: Provider = {
  provide: PROVIDER_RATE_LIMITER,
  useFactory: (config: GenerationConfig, nats: NatsConnection, settings: NatsSettings) =>
    new ProviderRateLimiter(nats, settings, config.PROVIDER_RATE_LIMIT_PER_MINUTE),
  inject: [APP_CONFIG, NATS_CONNECTION, NATS_SETTINGS],
};
