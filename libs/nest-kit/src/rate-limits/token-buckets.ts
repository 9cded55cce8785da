import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import { KvBucket } from '../messaging/kv-bucket.js';
import type { NatsSettings } from '../messaging/nats.js';

/** A bucket holds up to `capacity` tokens and gains `perSecond` a second; each request takes one (or `cost`). */
export interface TokenBucketRule {
  capacity: number;
  perSecond: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Tokens left after this request (whole ones). */
  remaining: number;
  /** When refused: how long until the request would be allowed. */
  retryAfterMs: number;
}

interface BucketState {
  tokens: number;
  at: number;
}

/** Replicas racing on one key retry a compare-and-set this often before giving up. */
const MAX_CONFLICTS = 50;

/**
 * Token buckets shared by every replica, kept in one NATS KV bucket (no Redis in this design):
 * each key's state is read and written back by compare-and-set on its revision, so two replicas
 * racing for the last token cannot both take it. A key nobody touched for a while is dropped by
 * the KV bucket's TTL, which must be at least the time a bucket takes to fill up again (a
 * missing key is a full bucket). Store failures are thrown: the caller decides whether to let
 * the request through.
 */
export class TokenBuckets {
  private readonly kv: KvBucket;
  /**
   * Changes waiting for each key in this process. Everything that arrives while a key's change is
   * under way is applied in one read and one compare-and-set after it, in arrival order: a burst
   * on one key (400 logins to one account at once) costs a few store round trips instead of one
   * each, and compare-and-set conflicts happen only between replicas.
   */
  private readonly pending = new Map<string, PendingChange[]>();

  constructor(
    nats: NatsConnection,
    settings: Pick<NatsSettings, 'namespace'>,
    /** The KV bucket's name, without the namespace. */
    bucket: string,
    options: { ttlMs?: number } = {},
    private readonly now: () => number = Date.now,
  ) {
    this.kv = new KvBucket(nats, settings, bucket, options);
  }

  /** Takes `cost` tokens from `key`'s bucket if it has them. One key, one rule. */
  async take(key: string, rule: TokenBucketRule, cost = 1): Promise<TakeResult> {
    let result: TakeResult = { allowed: false, remaining: 0, retryAfterMs: 0 };
    await this.change(key, rule, (tokens) => {
      const allowed = tokens >= cost;
      result = {
        allowed,
        remaining: Math.floor(allowed ? tokens - cost : tokens),
        retryAfterMs: allowed ? 0 : Math.ceil(((cost - tokens) / rule.perSecond) * 1000),
      };
      return allowed ? tokens - cost : undefined;
    });
    return result;
  }

  /** Gives `amount` tokens back (a reserved attempt that turned out not to count). */
  async give(key: string, rule: TokenBucketRule, amount = 1): Promise<void> {
    await this.change(key, rule, (tokens) => (tokens >= rule.capacity ? undefined : tokens + amount));
  }

  /**
   * Waits until `key` has a token and takes it (a shared pace, e.g. towards a provider). Resolves
   * with the milliseconds it waited for the budget: 0 when a token was there at once.
   */
  async acquire(key: string, rule: TokenBucketRule, signal?: AbortSignal): Promise<number> {
    let waitedMs = 0;
    for (;;) {
      signal?.throwIfAborted();
      const { allowed, retryAfterMs } = await this.take(key, rule);
      if (allowed) return waitedMs;
      const pause = retryAfterMs + Math.random() * 20;
      await sleep(pause, undefined, signal ? { signal } : {});
      waitedMs += pause;
    }
  }

  /** Queues `next` for `key`; the key's changes run in batches, one batch at a time. */
  private change(key: string, rule: TokenBucketRule, next: (tokens: number) => number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) {
        waiting.push({ rule, next, resolve, reject });
        return;
      }
      this.pending.set(key, [{ rule, next, resolve, reject }]);
      void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    for (;;) {
      const batch = this.pending.get(key) ?? [];
      const [first] = batch;
      if (!first) {
        this.pending.delete(key);
        return;
      }
      // What arrives from now on waits for the next batch.
      this.pending.set(key, []);
      try {
        // One key, one rule: the first change's.
        await this.compareAndSet(key, first.rule, batch);
        for (const change of batch) change.resolve();
      } catch (error) {
        for (const change of batch) change.reject(error);
      }
    }
  }

  /**
   * Reads the key's tokens as of now, lets each change decide the new count in turn (undefined:
   * leave it), and writes the result back only if nobody wrote in between; otherwise reads again
   * and decides again.
   */
  private async compareAndSet(key: string, rule: TokenBucketRule, batch: readonly PendingChange[]): Promise<void> {
    const kv = await this.kv.open();
    const entryKey = createHash('sha256').update(key).digest('hex').slice(0, 40);
    for (let conflicts = 0; ; conflicts += 1) {
      const entry = await kv.get(entryKey);
      const now = this.now();
      const stored = entry && entry.operation === 'PUT' ? (entry.json() as BucketState) : undefined;
      let tokens = stored
        ? Math.min(rule.capacity, stored.tokens + (Math.max(0, now - stored.at) / 1000) * rule.perSecond)
        : rule.capacity;
      let changed = false;
      for (const change of batch) {
        const updated = change.next(tokens);
        if (updated === undefined) continue;
        tokens = Math.min(rule.capacity, updated);
        changed = true;
      }
      if (!changed) return;
      const value = JSON.stringify({ tokens, at: now } satisfies BucketState);
      try {
        if (entry) await kv.update(entryKey, value, entry.revision);
        else await kv.create(entryKey, value);
        return;
      } catch (error) {
        // Another replica wrote first: read again.
        if (conflicts >= MAX_CONFLICTS) throw error;
        await sleep(Math.random() * 5);
      }
    }
  }
}

interface PendingChange {
  rule: TokenBucketRule;
  next: (tokens: number) => number | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A rule spending `limit` requests per `windowSeconds` (bursting up to the limit). */
export function perWindow(limit: number, windowSeconds: number): TokenBucketRule {
  return { capacity: limit, perSecond: limit / windowSeconds };
}
