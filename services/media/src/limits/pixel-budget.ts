import type { FieldIssue } from '@likeness/contracts';
import {
  APP_CONFIG,
  DomainError,
  NATS_CONNECTION,
  NATS_SETTINGS,
  type NatsSettings,
  TokenBuckets,
  type TokenBucketRule,
} from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type MediaConfig, PIXEL_BUDGET_REFILL_MAX_MINUTES } from '../media.config.js';

/** The kit's connection type, without media depending on the NATS client itself. */
type NatsConnection = ConstructorParameters<typeof TokenBuckets>[0];

/** A person spent their pixel budget: a 429, with how long to wait (media's internal HTTP sends it as Retry-After). */
export class PixelBudgetExceededError extends DomainError {
  constructor(message: string, retryAfterSeconds: number, issues?: FieldIssue[]) {
    super('COMMON.RATE_LIMITED', message, issues, { retryAfterSeconds });
  }
}

/**
 * Decoding costs CPU by the pixel, and a request for a 25-megapixel decode can be a few
 * kilobytes: each person has a budget of decoded megapixels a minute (uploads and conversions
 * together), read from each image's header before it is decoded. One token bucket per person in
 * NATS KV, so every media replica draws on the same budget. If the store cannot be reached the
 * work goes ahead (and the log says so): the per-upload and per-file caps still hold.
 */
@Injectable()
export class PixelBudget {
  private readonly logger = new Logger(PixelBudget.name);
  private readonly buckets: TokenBuckets;
  private readonly rule: TokenBucketRule;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(NATS_SETTINGS) settings: NatsSettings,
    @Inject(APP_CONFIG) private readonly config: MediaConfig,
  ) {
    this.buckets = new TokenBuckets(nats, settings, 'media_pixels', {
      ttlMs: PIXEL_BUDGET_REFILL_MAX_MINUTES * 60_000,
    });
    this.rule = { capacity: config.MEDIA_PIXEL_BURST_MP, perSecond: config.MEDIA_PIXEL_BUDGET_MP_PER_MINUTE / 60 };
  }

  /** Takes `pixels` from the person's budget, or refuses with `message` when it does not hold them. */
  async spend(userId: number, pixels: number, message: string, issues?: FieldIssue[]): Promise<void> {
    if (this.config.MEDIA_PIXEL_BUDGET_MP_PER_MINUTE === 0) return;
    let taken;
    try {
      taken = await this.buckets.take(`user:${userId}`, this.rule, pixels / 1_000_000);
    } catch (error) {
      this.logger.warn(`Pixel budgets unavailable, letting the work through: ${(error as Error).message}`);
      return;
    }
    if (!taken.allowed) {
      throw new PixelBudgetExceededError(message, Math.max(1, Math.ceil(taken.retryAfterMs / 1000)), issues);
    }
  }
}
