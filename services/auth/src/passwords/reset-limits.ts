import {
  APP_CONFIG,
  NATS_CONNECTION,
  NATS_SETTINGS,
  type NatsSettings,
  RateLimitedError,
  TokenBuckets,
  type TokenBucketRule,
  perWindow,
} from '@likeness/nest-kit';
import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthConfig } from '../auth.config.js';

/**
 * Reset requests per e-mail address (PASSWORD_RESET_LIMIT_PER_ADDRESS per
 * PASSWORD_RESET_WINDOW_SECONDS), in the kit's token buckets shared by every auth replica: nobody
 * floods an inbox with reset mails. Known and unknown addresses are counted alike, so a refusal
 * says nothing about an account. When the store cannot be reached the request goes ahead (and a
 * warning is logged); the gateway's per-address limit still holds.
 */
@Injectable()
export class ResetLimits {
  private readonly logger = new Logger(ResetLimits.name);
  private readonly buckets: TokenBuckets;
  private readonly rule: TokenBucketRule;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(NATS_SETTINGS) settings: NatsSettings,
    @Inject(APP_CONFIG) config: AuthConfig,
  ) {
    const window = config.PASSWORD_RESET_WINDOW_SECONDS;
    this.buckets = new TokenBuckets(nats, settings, 'password_reset_limits', { ttlMs: window * 1000 });
    this.rule = perWindow(config.PASSWORD_RESET_LIMIT_PER_ADDRESS, window);
  }

  /** Counts one request for the address, or refuses it (429 with the wait). */
  async take(address: string): Promise<void> {
    let result;
    try {
      result = await this.buckets.take(`address:${address}`, this.rule);
    } catch (error) {
      this.logger.warn(`Password reset limits unavailable, letting the request through: ${(error as Error).message}`);
      return;
    }
    if (!result.allowed) throw new RateLimitedError(result.retryAfterMs / 1000, 'password reset requests');
  }
}
