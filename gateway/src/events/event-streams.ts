import type { EventEmitter } from 'node:events';
import { LIVE_RESYNC_EVENT } from '@likeness/contracts';
import { APP_CONFIG, DomainError } from '@likeness/nest-kit';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionRevocationList } from '../auth/session-revocation-list.js';
import type { GatewayConfig } from '../gateway.config.js';
import type { LiveEvent } from './live-events.js';
import { UserEventBus } from './user-event-bus.js';

/** A stream whose reader has fallen this far behind is closed; its browser resumes from its last id. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * Where a stream's text goes: the HTTP response itself (no stream in between, so a held stream
 * keeps as little alive as it can), or any writable stream.
 */
export interface EventSink extends EventEmitter {
  write(text: string): unknown;
  end(text?: string): unknown;
  readonly writableEnded: boolean;
  /** Bytes written and not yet taken by the reader (for a response, its socket's too). */
  readonly writableLength: number;
  readonly destroyed: boolean;
  destroy(): unknown;
}

interface OpenStream {
  userId: number;
  sessionId: string;
  body: EventSink;
  /** The last event id written: a resume's replay and the live events overlap, each is sent once. */
  lastId: number;
  close(retryMs?: number): void;
}

const frame = (event: LiveEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** A `Last-Event-ID` as we send them (a JetStream sequence); anything else starts afresh. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  return text && /^[0-9]{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * The event streams open on this gateway, by user: at most EVENT_STREAMS_PER_USER each (another is
 * refused with 429, so open windows never take turns closing each other), a comment line every
 * EVENT_STREAM_HEARTBEAT_MS so proxies keep them open, closed when their session ends (logout,
 * revocation) and, on shutdown, closed with a `retry:` hint so browsers reconnect to another
 * replica spread over a few seconds.
 */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EventStreams.name);
  private readonly byUser = new Map<number, Set<OpenStream>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
    private readonly bus: UserEventBus,
    revocations: SessionRevocationList,
  ) {
    revocations.onRevoked((sessionId) => this.closeSession(sessionId));
  }

  /**
   * Opens the user's stream into the sink `start` returns; its events start after `lastEventId`
   * when it is given and recent enough. A stream over the user's cap is refused (thrown) before
   * `start` is called, so nothing has been written when the refusal is answered.
   */
  open(user: AuthenticatedUser, lastEventId: number | undefined, start: () => EventSink): void {
    const own = this.byUser.get(user.id) ?? new Set<OpenStream>();
    if (own.size >= this.config.EVENT_STREAMS_PER_USER) {
      throw new DomainError(
        'COMMON.RATE_LIMITED',
        `You already have ${own.size} windows receiving live updates; close one of them and reload this page.`,
      );
    }
    const body = start();
    this.byUser.set(user.id, own);
    const stream: OpenStream = { userId: user.id, sessionId: user.sessionId, body, lastId: lastEventId ?? 0, close };
    own.add(stream);

    const pending: LiveEvent[] = [];
    let replaying = lastEventId !== undefined;
    const send = (event: LiveEvent) => {
      if (event.id <= stream.lastId) return;
      stream.lastId = event.id;
      this.write(stream, frame(event));
    };
    const unsubscribe = this.bus.subscribe(user.id, (event) => (replaying ? pending.push(event) : send(event)));
    const period = this.config.EVENT_STREAM_HEARTBEAT_MS;
    const beat = () => this.write(stream, ': heartbeat\n\n');
    // Streams opened together (browsers reconnecting after a deploy) beat at different moments.
    let heartbeat = setTimeout(() => {
      beat();
      heartbeat = setInterval(beat, period).unref();
    }, Math.random() * period).unref();

    let closed = false;
    const cleanUp = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      own.delete(stream);
      if (own.size === 0 && this.byUser.get(user.id) === own) this.byUser.delete(user.id);
    };
    function close(retryMs?: number) {
      if (!body.writableEnded) body.end(retryMs === undefined ? undefined : `retry: ${retryMs}\n\n`);
      cleanUp();
    }
    body.on('error', (error: Error) => {
      this.logger.debug(`An event stream of user ${user.id} failed: ${error.message}`);
      cleanUp();
    });
    body.once('close', cleanUp);
    // A browser that left while the request was checked: its response closed before anyone listened.
    if (body.destroyed) cleanUp();

    this.write(stream, `retry: ${this.config.EVENT_STREAM_RETRY_MS}\n: connected\n\n`);
    if (lastEventId !== undefined) {
      this.bus
        .replay(user.id, lastEventId, this.config.EVENT_STREAM_RESUME_MAX_EVENTS, send)
        .catch((error: unknown) => {
          this.logger.warn(`Replaying events after ${lastEventId} failed: ${(error as Error).message}`);
          return 'too-far' as const;
        })
        .then((outcome) => {
          if (outcome === 'too-far') this.write(stream, `event: ${LIVE_RESYNC_EVENT}\ndata: {}\n\n`);
          replaying = false;
          for (const event of pending.splice(0)) send(event);
        })
        .catch((error: unknown) => this.logger.warn(`An event stream failed: ${(error as Error).message}`));
    }
  }

  /** The streams of a session that has ended: its browser is signed out and reconnects in vain. */
  closeSession(sessionId: string): void {
    for (const own of this.byUser.values()) {
      for (const stream of own) if (stream.sessionId === sessionId) stream.close();
    }
  }

  /** How many streams are open on this gateway (for the benchmark and logs). */
  get openCount(): number {
    let count = 0;
    for (const own of this.byUser.values()) count += own.size;
    return count;
  }

  beforeApplicationShutdown(): void {
    const open = this.openCount;
    if (open > 0) this.logger.log(`Closing ${open} event stream(s) for shutdown`);
    const spread = this.config.EVENT_STREAM_RETRY_MS;
    for (const own of [...this.byUser.values()]) {
      for (const stream of [...own]) stream.close(spread + Math.floor(Math.random() * spread));
    }
  }

  private write(stream: OpenStream, text: string): void {
    const { body } = stream;
    if (body.writableEnded || body.destroyed) return;
    if (body.writableLength > MAX_BUFFERED_BYTES) {
      // Ending it would wait for the reader to take what is buffered first.
      this.logger.warn(`Closing an event stream of user ${stream.userId}: its reader fell behind`);
      body.destroy();
      return;
    }
    body.write(text);
  }
}
