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

/** Who a login attempt is against and where it comes from. */
export interface LoginAttempt {
  /** The account a known name resolves to (`user:<id>`), else the name as typed, normalised (`name:<text>`). */
  account: string;
  ip: string | undefined;
  /** A device token's id, when the browser sent one naming this account. */
  device: string | undefined;
}

/** Attempts taken from the limits; give them back when the attempt turns out not to count. */
export interface LoginReservation {
  release(): Promise<void>;
}

/**
 * The per-account login limits, in the kit's token buckets shared by every auth replica. An
 * attempt is reserved before the password is checked (so parallel guesses cannot all pass a check
 * made before any of them is counted) and given back when the password was right or never
 * checked: the limits count failures. Three buckets:
 *
 * - per account, whatever name or address the attempt used (LOGIN_LIMIT_PER_ACCOUNT);
 * - per account and address, lower (LOGIN_LIMIT_PER_IP_AND_ACCOUNT): one address runs out before
 *   the account does, so a stranger at one address cannot lock the owner out;
 * - per device token, instead of both, for a browser that signed in to this account before
 *   (DeviceTokens): strangers spending the account's limit leave it untouched.
 *
 * When the store cannot be reached the attempt goes ahead (and a warning is logged): a lockout
 * of every account during a broker hiccup is worse than argon2's own pace, which the bounded
 * hasher keeps to a few hundred guesses a second per replica at most.
 */
@Injectable()
export class LoginLimits {
  private readonly logger = new Logger(LoginLimits.name);
  private readonly buckets: TokenBuckets;
  private readonly perAccount: TokenBucketRule;
  private readonly perAddressAndAccount: TokenBucketRule;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(NATS_SETTINGS) settings: NatsSettings,
    @Inject(APP_CONFIG) config: AuthConfig,
  ) {
    const window = config.RATE_LIMIT_WINDOW_SECONDS;
    // A key untouched for a window is a full bucket again: the store may forget it then.
    this.buckets = new TokenBuckets(nats, settings, 'login_limits', { ttlMs: window * 1000 });
    this.perAccount = perWindow(config.LOGIN_LIMIT_PER_ACCOUNT, window);
    this.perAddressAndAccount = perWindow(config.LOGIN_LIMIT_PER_IP_AND_ACCOUNT, window);
  }

  /** Takes one attempt from each of the attempt's buckets, or refuses (429) taking none. */
  async reserve(attempt: LoginAttempt): Promise<LoginReservation> {
    const buckets: [string, TokenBucketRule][] = attempt.device
      ? [[`device:${attempt.device}`, this.perAccount]]
      : [
          [`address:${attempt.ip ?? 'unknown'}:${attempt.account}`, this.perAddressAndAccount],
          [`account:${attempt.account}`, this.perAccount],
        ];
    const taken: [string, TokenBucketRule][] = [];
    try {
      for (const [key, rule] of buckets) {
        const result = await this.buckets.take(key, rule);
        if (!result.allowed) {
          await this.giveBack(taken);
          throw new RateLimitedError(result.retryAfterMs / 1000);
        }
        taken.push([key, rule]);
      }
    } catch (error) {
      if (error instanceof RateLimitedError) throw error;
      this.logger.warn(`Login limits unavailable, letting the attempt through: ${(error as Error).message}`);
    }
    return { release: () => this.giveBack(taken) };
  }

  private async giveBack(taken: [string, TokenBucketRule][]): Promise<void> {
    try {
      await Promise.all(taken.map(([key, rule]) => this.buckets.give(key, rule)));
    } catch (error) {
      this.logger.warn(`Could not give a login attempt back: ${(error as Error).message}`);
    }
  }
}
