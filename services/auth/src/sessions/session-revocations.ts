import {
  AuthEvents,
  type EventPayload,
  SESSION_REVOCATIONS_BUCKET,
  type SessionRevocation,
  sessionRevocationSchema,
} from '@likeness/contracts';
import {
  APP_CONFIG,
  EventHandler,
  KvBucket,
  NATS_CONNECTION,
  NATS_SETTINGS,
  type NatsSettings,
  OutboxService,
} from '@likeness/nest-kit';
import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthConfig } from '../auth.config.js';

/** Clocks of auth and gateway replicas may disagree this much; revocations outlive their tokens by it. */
const CLOCK_SKEW_MS = 60_000;

/** Sessions of one user ended together, announced after the transaction that ended them commits. */
export interface RevokedSessions {
  userId: number;
  sessionIds: string[];
  /** When the last access token of these sessions expires: the revocations matter until then. */
  until: Date;
}

/**
 * The shared list of revoked sessions: a NATS KV bucket (SESSION_REVOCATIONS_BUCKET) every gateway
 * replica watches, one key per session id, kept as long as an access token of that session can
 * live. A revocation is recorded twice over: in the transaction that revokes the refresh tokens,
 * as a SessionsRevoked event in the outbox, and right after the commit, straight into the KV
 * bucket (the revocation takes effect on the next request). The event is handled here too: it
 * writes what the direct write could not, so a KV outage delays a revocation and never loses it.
 */
@Injectable()
export class SessionRevocations implements OnApplicationBootstrap {
  private readonly logger = new Logger(SessionRevocations.name);
  private readonly kv: KvBucket;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(NATS_SETTINGS) settings: NatsSettings,
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    private readonly outbox: OutboxService,
  ) {
    this.kv = new KvBucket(nats, settings, SESSION_REVOCATIONS_BUCKET, { ttlMs: this.lifeMs });
  }

  /** Creates the bucket at start, so gateway replicas can watch it before the first revocation. */
  async onApplicationBootstrap(): Promise<void> {
    await this.kv.open().catch((error: unknown) => {
      this.logger.warn(`The session revocation list is not reachable yet: ${(error as Error).message}`);
    });
  }

  /** How long a revocation must be kept: the life of an access token issued a moment before it. */
  get lifeMs(): number {
    return this.config.ACCESS_TOKEN_TTL_SECONDS * 1000 + CLOCK_SKEW_MS;
  }

  /** Records revoked sessions in the caller's transaction (the outbox event); publish() after commit. */
  async record(manager: EntityManager, userId: number, sessionIds: string[]): Promise<RevokedSessions | undefined> {
    if (sessionIds.length === 0) return undefined;
    const revoked = { userId, sessionIds, until: new Date(Date.now() + this.lifeMs) };
    await this.outbox.add(manager, AuthEvents.SessionsRevoked, {
      userId,
      sessionIds,
      until: revoked.until.toISOString(),
    });
    return revoked;
  }

  /**
   * Writes the revocations to the shared list now. A failure is logged, not thrown: the outbox
   * event written with the revocation retries it, and the caller (a logout) has done its part.
   */
  async publish(revoked: RevokedSessions | undefined): Promise<SessionRevocation[]> {
    if (!revoked) return [];
    const entries = revoked.sessionIds.map((sessionId) => ({ sessionId, until: revoked.until.toISOString() }));
    try {
      const kv = await this.kv.open();
      await Promise.all(entries.map((entry) => kv.put(entry.sessionId, JSON.stringify(entry))));
    } catch (error) {
      this.logger.warn(
        `Revoked ${entries.length} session(s) of user ${revoked.userId}; the revocation list will get them when reachable: ${(error as Error).message}`,
      );
    }
    return entries;
  }

  /** The outbox's copy: writes each revocation the list does not hold yet, while it still matters. */
  @EventHandler(AuthEvents.SessionsRevoked)
  async onSessionsRevoked(event: EventPayload<typeof AuthEvents.SessionsRevoked>): Promise<void> {
    if (Date.parse(event.until) <= Date.now()) return;
    const kv = await this.kv.open();
    for (const sessionId of event.sessionIds) {
      const entry = await kv.get(sessionId);
      if (entry?.operation === 'PUT' && sessionRevocationSchema.safeParse(entry.json()).success) continue;
      await kv.put(sessionId, JSON.stringify({ sessionId, until: event.until } satisfies SessionRevocation));
    }
  }
}
