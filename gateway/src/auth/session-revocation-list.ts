import { setTimeout as sleep } from 'node:timers/promises';
import { SESSION_REVOCATIONS_BUCKET, type SessionRevocation, sessionRevocationSchema } from '@likeness/contracts';
import { FailureStreak, NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespacedStream } from '@likeness/nest-kit';
import { type KvWatchEntry, Kvm } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';

/** How long a starting replica waits to learn the live revocations before it serves without them. */
export const REVOCATIONS_LOAD_WAIT_MS = 5_000;

/**
 * This replica's copy of the revoked sessions, so refusing a revoked access token costs a map
 * lookup, not a call to auth. Auth writes each revocation into a NATS KV bucket that keeps it as
 * long as an access token can live; every replica watches the bucket, and a replica starting up
 * first reads what it holds (the watch begins with the last value of every key). The replica that
 * ends a session (a logout) adds it here at once, without waiting for the watch.
 *
 * While the bucket cannot be reached (JetStream down, auth not started yet), the copy keeps what
 * it knows and tokens not known to be revoked are accepted: the access token's own expiry
 * (ACCESS_TOKEN_TTL_SECONDS) still bounds them, as before this list existed, refresh tokens are
 * revoked in auth's database regardless, and refusing every session while the broker hiccups
 * would sign out every user. Revocations made meanwhile arrive when the watch resumes.
 */
@Injectable()
export class SessionRevocationList implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SessionRevocationList.name);
  /** Session id → when its last access token expires (ms); in insertion order, which is roughly that order. */
  private readonly revoked = new Map<string, number>();
  private readonly revokedListeners: ((sessionId: string) => void)[] = [];
  private watcher: QueuedIterator<KvWatchEntry> | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly stopped = new AbortController();
  private markLoaded!: () => void;
  private isLoaded = false;
  /** Resolves once the live revocations are known, or after REVOCATIONS_LOAD_WAIT_MS without the store. */
  readonly loaded: Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {
    this.loaded = new Promise((resolve) => {
      this.markLoaded = () => {
        this.isLoaded = true;
        resolve();
      };
    });
  }

  onApplicationBootstrap(): void {
    setTimeout(() => {
      if (this.isLoaded) return;
      this.logger.warn('The session revocation list is not reachable; serving without it until it is');
      this.markLoaded();
    }, REVOCATIONS_LOAD_WAIT_MS).unref();
    this.loop = this.watch();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.watcher?.stop();
    await this.loop;
  }

  isRevoked(sessionId: string): boolean {
    const until = this.revoked.get(sessionId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.revoked.delete(sessionId);
    return false;
  }

  /** Calls `listener` with each session revoked from now on (what hangs on a session, such as its event streams, ends). */
  onRevoked(listener: (sessionId: string) => void): void {
    this.revokedListeners.push(listener);
  }

  /** Takes effect at once on this replica (a logout it handled); the others learn it from the bucket. */
  add(revocation: SessionRevocation): void {
    const until = Date.parse(revocation.until);
    if (!(until > Date.now())) return;
    this.revoked.delete(revocation.sessionId);
    this.revoked.set(revocation.sessionId, until);
    for (const listener of this.revokedListeners) listener(revocation.sessionId);
    // Drop the oldest entries once their tokens have expired, so the map holds one token life of revocations.
    for (const [sessionId, expires] of this.revoked) {
      if (expires > Date.now()) break;
      this.revoked.delete(sessionId);
    }
  }

  private async watch(): Promise<void> {
    const streak = new FailureStreak();
    while (!this.stopping) {
      try {
        const kv = await new Kvm(this.nats).open(namespacedStream(this.settings, SESSION_REVOCATIONS_BUCKET));
        // Fails until auth has created the bucket. The newest message is the last one of its key,
        // so the watch has delivered everything there was once it reaches that sequence.
        const { state } = (await kv.status()).streamInfo;
        const newest = state.messages > 0 ? state.last_seq : 0;
        this.watcher = await kv.watch();
        if (newest === 0) this.markLoaded();
        if (streak.reset()) this.logger.log('The session revocation list is reachable again');
        for await (const entry of this.watcher) {
          this.apply(entry);
          if (entry.revision >= newest) this.markLoaded();
        }
        if (this.stopping) break;
        throw new Error('the watch ended');
      } catch (error) {
        if (this.stopping) break;
        const wait = streak.fail();
        if (streak.worthLogging) {
          this.logger.warn(`Watching the session revocation list: ${(error as Error).message}; trying again`);
        }
        await sleep(wait, undefined, { signal: this.stopped.signal }).catch(() => undefined);
      }
    }
  }

  private apply(entry: KvWatchEntry): void {
    if (entry.operation !== 'PUT') return;
    const revocation = sessionRevocationSchema.safeParse(safeJson(entry));
    if (revocation.success) this.add(revocation.data);
    else this.logger.warn(`Ignoring a malformed session revocation under ${entry.key}`);
  }
}

function safeJson(entry: KvWatchEntry): unknown {
  try {
    return entry.json();
  } catch {
    return undefined;
  }
}
