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
import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  Optional,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';

/** A clock for tests; the wall clock otherwise. */
export const RATE_LIMIT_CLOCK = Symbol('RATE_LIMIT_CLOCK');

/** What the gateway limits, and each limit's rule, from the config. */
export function gatewayRateRules(config: GatewayConfig) {
  const perMinute = (rate: number, burst: number): TokenBucketRule => ({ capacity: burst, perSecond: rate / 60 });
  return {
    login: perWindow(config.LOGIN_LIMIT_PER_IP, config.RATE_LIMIT_WINDOW_SECONDS),
    register: perWindow(config.REGISTER_LIMIT_PER_IP, config.RATE_LIMIT_WINDOW_SECONDS),
    passwordReset: perWindow(config.PASSWORD_RESET_LIMIT_PER_IP, config.RATE_LIMIT_WINDOW_SECONDS),
    passwordChanges: perWindow(config.PASSWORD_CHANGE_LIMIT_PER_USER, config.RATE_LIMIT_WINDOW_SECONDS),
    uploads: perMinute(config.UPLOAD_LIMIT_PER_MINUTE, config.UPLOAD_LIMIT_BURST),
    imageConversions: perMinute(config.IMAGE_FORMATTER_LIMIT_PER_MINUTE, config.IMAGE_FORMATTER_LIMIT_BURST),
  } satisfies Record<string, TokenBucketRule>;
}
export type GatewayRateRule = keyof ReturnType<typeof gatewayRateRules>;

/** What each rule counts, as a refusal names it: "Too many uploads. Please wait a minute and try again." */
const COUNTED: Record<GatewayRateRule, string> = {
  login: 'attempts',
  register: 'attempts',
  passwordReset: 'attempts',
  passwordChanges: 'attempts',
  uploads: 'uploads',
  imageConversions: 'image conversions',
};

/**
 * The gateway's limits, in the kit's token buckets shared by every replica (a NATS KV bucket). If
 * the store cannot be reached the request goes through (and a warning is logged): every limited
 * route needs NATS to do anything anyway, and auth keeps its own per-account login limits.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly buckets: TokenBuckets;
  readonly rules: ReturnType<typeof gatewayRateRules>;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(NATS_SETTINGS) settings: NatsSettings,
    @Inject(APP_CONFIG) config: GatewayConfig,
    @Optional() @Inject(RATE_LIMIT_CLOCK) clock?: () => number,
  ) {
    this.rules = gatewayRateRules(config);
    // A key untouched until its bucket is full again may be forgotten: the slowest bucket's refill.
    const ttlMs = Math.max(...Object.values(this.rules).map((rule) => (rule.capacity / rule.perSecond) * 1000));
    this.buckets = new TokenBuckets(nats, settings, 'gateway_rate_limits', { ttlMs: Math.ceil(ttlMs) }, clock);
  }

  /** Takes one from `key`'s bucket under `rule`; refuses (429, with the wait) when it is empty. */
  async consume(rule: GatewayRateRule, key: string): Promise<void> {
    let result;
    try {
      result = await this.buckets.take(`${rule}:${key}`, this.rules[rule]);
    } catch (error) {
      this.logger.warn(`Rate limits unavailable, letting the request through: ${(error as Error).message}`);
      return;
    }
    if (!result.allowed) throw new RateLimitedError(result.retryAfterMs / 1000, COUNTED[rule]);
  }
}

type Action = 'login' | 'register' | 'passwordReset';
const RATE_LIMIT_ACTION = Symbol('RATE_LIMIT_ACTION');

/**
 * Limits an auth action per client address (every attempt counts). Failed logins per account are
 * auth's to count: it knows which account a name or an e-mail address belongs to.
 */
@Injectable()
export class AuthRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<Action>(RATE_LIMIT_ACTION, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.limiter.consume(action, `ip:${request.ip}`);
    return true;
  }
}

export const RateLimited = (action: Action) =>
  applyDecorators(SetMetadata(RATE_LIMIT_ACTION, action), UseGuards(AuthRateLimitGuard));
