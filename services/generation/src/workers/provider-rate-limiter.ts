import { type NatsSettings, TokenBuckets } from '@likeness/nest-kit';
import type { NatsConnection } from '@nats-io/transport-node';

/** The bucket may hold up to this many seconds of requests at once (then it refills at the rate). */
const BURST_SECONDS = 10;

/**
 * One rate limit towards the inference provider for the whole account, whichever worker replica
 * asks: the kit's shared token bucket, refilled at `perMinute / 60` a second and holding at most
 * 10 seconds' worth, so a burst never exceeds what the provider allows in a minute.
 */
export class ProviderRateLimiter {
  private readonly buckets: TokenBuckets;
  private readonly rule: { capacity: number; perSecond: number };

  constructor(
    nats: NatsConnection,
    settings: NatsSettings,
    /** 0: no limit. */
    private readonly perMinute: number,
    now: () => number = Date.now,
  ) {
    this.buckets = new TokenBuckets(nats, settings, 'generation_rate', {}, now);
    this.rule = { capacity: Math.max(1, Math.floor((perMinute * BURST_SECONDS) / 60)), perSecond: perMinute / 60 };
  }

  get limited(): boolean {
    return this.perMinute > 0;
  }

  /** Waits until the account may send one more prediction, and takes that turn; resolves with the milliseconds waited. */
  async acquire(signal?: AbortSignal): Promise<number> {
    return this.limited ? this.buckets.acquire('predictions', this.rule, signal) : 0;
  }
}
