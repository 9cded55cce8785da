import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { type NatsSettings, namespacedStream } from './nats.js';

export interface KvBucketOptions {
  /** Entries not written for this long are dropped; unset: kept. */
  ttlMs?: number;
}

/**
 * A NATS KV bucket opened on first use and shared by every replica (JetStream keeps it). A
 * failed open is forgotten, so the next use tries again rather than failing for ever.
 */
export class KvBucket {
  private opened: Promise<KV> | undefined;

  constructor(
    private readonly nats: NatsConnection,
    private readonly settings: Pick<NatsSettings, 'namespace' | 'replicas'>,
    /** Without the namespace. */
    private readonly name: string,
    private readonly options: KvBucketOptions = {},
  ) {}

  open(): Promise<KV> {
    this.opened ??= new Kvm(this.nats)
      .create(namespacedStream(this.settings, this.name), {
        history: 1,
        replicas: this.settings.replicas ?? 1,
        ...(this.options.ttlMs ? { ttl: this.options.ttlMs } : {}),
      })
      .catch((error: unknown) => {
        this.opened = undefined;
        throw error;
      });
    return this.opened;
  }
}
