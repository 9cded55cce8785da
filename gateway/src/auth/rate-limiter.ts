import { createHash } from 'node:crypto';
import { APP_CONFIG, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespacedStream } from '@likeness/nest-kit';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';
import { RateLimitedError } from '../http/http-errors.js';

const BUCKET = 'RATE_LIMITS';
const CAS_ATTEMPTS = 20;

/**
 * Fixed-window counters shared by every gateway replica, in a NATS KV bucket (JetStream):
 * one key per limited thing and window, incremented with compare-and-set so concurrent
 * replicas never lose a count. Keys expire with the bucket's TTL. If the store cannot be
 * reached the limiter lets requests through (and says so): a login needs NATS anyway.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private bucket: Promise<KV> | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Counts one attempt against `key`; refuses once `limit` is spent. */
  async consume(key: string, limit: number, now = Date.now()): Promise<void> {
    const count = await this.increment(key, now);
    if (count > limit) throw this.refusal(now);
  }

  /** Refuses when `key` has spent `limit` in its current window, without counting. */
  async assertAllowed(key: string, limit: number, now = Date.now()): Promise<void> {
    if ((await this.count(key, now)) >= limit) throw this.refusal(now);
  }

  /** Counts one event against `key`. */
  async record(key: string, now = Date.now()): Promise<void> {
    await this.increment(key, now);
  }

  private get windowMs(): number {
    return this.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  }

  private refusal(now: number): RateLimitedError {
    const windowEnd = (Math.floor(now / this.windowMs) + 1) * this.windowMs;
    return new RateLimitedError(Math.max(1, Math.ceil((windowEnd - now) / 1000)));
  }

  /** A KV-safe key: the thing limited (an IP, an e-mail...) hashed, then the window's number. */
  private entryKey(key: string, now: number): string {
    return `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.${Math.floor(now / this.windowMs)}`;
  }

  private async count(key: string, now: number): Promise<number> {
    try {
      const entry = await (await this.kv()).get(this.entryKey(key, now));
      return entry && entry.operation === 'PUT' ? Number(entry.string()) : 0;
    } catch (error) {
      this.failOpen(error);
      return 0;
    }
  }

  private async increment(key: string, now: number): Promise<number> {
    try {
      const kv = await this.kv();
      const entryKey = this.entryKey(key, now);
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
        const entry = await kv.get(entryKey);
        try {
          if (!entry || entry.operation !== 'PUT') {
            await kv.create(entryKey, '1');
            return 1;
          }
          const next = Number(entry.string()) + 1;
          await kv.update(entryKey, String(next), entry.revision);
          return next;
        } catch {
          // Another replica counted first: read again and retry.
        }
      }
      throw new Error(`rate limit counter ${entryKey} kept changing`);
    } catch (error) {
      this.failOpen(error);
      return 0;
    }
  }

  private kv(): Promise<KV> {
    this.bucket ??= new Kvm(this.nats)
      .create(namespacedStream(this.settings, BUCKET), { history: 1, ttl: 2 * this.windowMs })
      .catch((error: unknown) => {
        this.bucket = undefined;
        throw error;
      });
    return this.bucket;
  }

  private failOpen(error: unknown): void {
    this.logger.warn(`Rate limits unavailable, letting the request through: ${(error as Error).message}`);
  }
}

type Action = 'login' | 'register';
const RATE_LIMIT_ACTION = Symbol('RATE_LIMIT_ACTION');

export const accountKey = (login: string) => `login:account:${login.trim().toLowerCase()}`;

/**
 * Limits an auth action per client IP (every attempt counts) and, for login, per account
 * named in the body (failed attempts count: see AuthSessionService.login).
 */
@Injectable()
export class AuthRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<Action>(RATE_LIMIT_ACTION, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (action === 'register') {
      await this.limiter.consume(`register:ip:${request.ip}`, this.config.REGISTER_LIMIT_PER_IP);
      return true;
    }
    await this.limiter.consume(`login:ip:${request.ip}`, this.config.LOGIN_LIMIT_PER_IP);
    const account = (request.body as { username?: unknown } | undefined)?.username;
    if (typeof account === 'string' && account.trim()) {
      await this.limiter.assertAllowed(accountKey(account), this.config.LOGIN_LIMIT_PER_ACCOUNT);
    }
    return true;
  }
}

export const RateLimited = (action: Action) =>
  applyDecorators(SetMetadata(RATE_LIMIT_ACTION, action), UseGuards(AuthRateLimitGuard));
