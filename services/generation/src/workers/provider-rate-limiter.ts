import { setTimeout as sleep } from 'node:timers/promises';
import { type NatsSettings, namespacedStream } from '@likeness/nest-kit';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

const KEY = 'predictions';
/** The bucket may hold up to this many seconds of requests at once (then it refills at the rate). */
const BURST_SECONDS = 10;
const MAX_CONFLICTS = 50;

interface BucketState {
  tokens: number;
  at: number;
}

/**
 * One rate limit towards the inference provider for the whole account, whichever worker replica
 * asks: a token bucket kept in a NATS KV entry and changed only by compare-and-set on its
 * revision, so replicas racing for the last token cannot both take it. It refills at
 * `perMinute / 60` a second and holds at most 10 seconds' worth, so a burst never exceeds what
 * the provider allows in a minute.
 */
export class ProviderRateLimiter {
  private kv: Promise<KV> | undefined;
  private readonly perMs: number;
  private readonly capacity: number;

  constructor(
    private readonly nats: NatsConnection,
    private readonly settings: NatsSettings,
    /** 0: no limit. */
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
    this.capacity = Math.max(1, Math.floor((perMinute * BURST_SECONDS) / 60));
  }

  get limited(): boolean {
    return this.perMinute > 0;
  }

  /** Waits until the account may send one more prediction, and takes that turn. */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (!this.limited) return;
    const kv = await this.bucket();
    let conflicts = 0;
    for (;;) {
      signal?.throwIfAborted();
      const entry = await kv.get(KEY);
      const now = this.now();
      const stored = entry && entry.operation === 'PUT' ? (entry.json() as BucketState) : undefined;
      const tokens = stored
        ? Math.min(this.capacity, stored.tokens + Math.max(0, now - stored.at) * this.perMs)
        : this.capacity;
      if (tokens >= 1) {
        const next = JSON.stringify({ tokens: tokens - 1, at: now } satisfies BucketState);
        try {
          if (entry) await kv.update(KEY, next, entry.revision);
          else await kv.create(KEY, next);
          return;
        } catch (error) {
          // Another replica changed the bucket since we read it: read it again.
          conflicts += 1;
          if (conflicts > MAX_CONFLICTS) throw error;
          await sleep(Math.random() * 5);
          continue;
        }
      }
      await sleep(Math.ceil((1 - tokens) / this.perMs) + Math.random() * 20, undefined, signal ? { signal } : {});
    }
  }

  private bucket(): Promise<KV> {
    this.kv ??= new Kvm(this.nats)
      .create(namespacedStream(this.settings, 'generation_rate'), { history: 1 })
      .catch((error: unknown) => {
        this.kv = undefined;
        throw error;
      });
    return this.kv;
  }
}
