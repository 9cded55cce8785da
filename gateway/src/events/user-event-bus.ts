import { setTimeout as sleep } from 'node:timers/promises';
import { EVENTS_SUBJECT_PREFIX } from '@likeness/contracts';
import {
  FailureStreak,
  NATS_CONNECTION,
  NATS_SETTINGS,
  type NatsSettings,
  ensureEventsStream,
  namespaced,
} from '@likeness/nest-kit';
import {
  type ConsumerMessages,
  DeliverPolicy,
  type JsMsg,
  type OrderedConsumerOptions,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type LiveEvent, isLiveSubject, liveEventOf } from './live-events.js';

export type LiveEventListener = (event: LiveEvent) => void;

/** How a resume went: the missed events were delivered, or they are too far behind to replay. */
export type ReplayOutcome = 'replayed' | 'too-far';

/** A replay that has not reached its end by then gives up (the client reads everything again). */
const REPLAY_TIMEOUT_MS = 10_000;

/**
 * This gateway's one view of the domain events: one ordered JetStream consumer over the events
 * stream, whose user events are handed in memory to that user's listeners (the open event streams).
 * A browser never costs a consumer. A resume reads the missed part of the stream with a short-lived
 * ordered consumer from the sequence the browser last saw, which any replica can do alike.
 */
@Injectable()
export class UserEventBus implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(UserEventBus.name);
  private readonly listeners = new Map<number, Set<LiveEventListener>>();
  private readonly filter: string;
  private readonly prefix: string;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly stopped = new AbortController();
  /** The last sequence the live consumer delivered: it carries on from there after a failure. */
  private lastSequence = 0;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {
    this.filter = namespaced(settings, `${EVENTS_SUBJECT_PREFIX}.>`);
    this.prefix = settings.namespace ? `${settings.namespace}.` : '';
  }

  onApplicationBootstrap(): void {
    this.loop = this.consumeLive();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.messages?.stop();
    await this.loop;
  }

  /** Calls `listener` with each new event of the user until the returned function is called. */
  subscribe(userId: number, listener: LiveEventListener): () => void {
    let own = this.listeners.get(userId);
    if (!own) {
      own = new Set();
      this.listeners.set(userId, own);
    }
    own.add(listener);
    return () => {
      own.delete(listener);
      if (own.size === 0 && this.listeners.get(userId) === own) this.listeners.delete(userId);
    };
  }

  /**
   * The user's events after `afterSequence` up to the stream's end as it is now, in order. At
   * most `maxBehind` stream messages are read: further behind is 'too-far'.
   */
  async replay(
    userId: number,
    afterSequence: number,
    maxBehind: number,
    deliver: LiveEventListener,
  ): Promise<ReplayOutcome> {
    const jsm = await jetstreamManager(this.nats);
    const stream = await ensureEventsStream(jsm, this.settings);
    const { state } = await jsm.streams.info(stream);
    if (afterSequence >= state.last_seq) return afterSequence > state.last_seq ? 'too-far' : 'replayed';
    if (afterSequence + 1 < state.first_seq || state.last_seq - afterSequence > maxBehind) return 'too-far';
    const consumer = await jetstream(this.nats).consumers.get(stream, {
      filter_subjects: this.filter,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: afterSequence + 1,
    } satisfies Partial<OrderedConsumerOptions>);
    const messages = await consumer.consume({ max_messages: 256 });
    const timer = setTimeout(() => messages.stop(), REPLAY_TIMEOUT_MS);
    let reached = false;
    try {
      for await (const message of messages) {
        const event = this.translate(message);
        if (event?.userId === userId) deliver(event);
        if (message.seq >= state.last_seq || message.info.pending === 0) {
          reached = true;
          break;
        }
      }
    } finally {
      clearTimeout(timer);
      messages.stop();
    }
    return reached ? 'replayed' : 'too-far';
  }

  private async consumeLive(): Promise<void> {
    const streak = new FailureStreak();
    while (!this.stopping) {
      try {
        const jsm = await jetstreamManager(this.nats);
        const stream = await ensureEventsStream(jsm, this.settings);
        const consumer = await jetstream(this.nats).consumers.get(stream, {
          filter_subjects: this.filter,
          ...(this.lastSequence > 0
            ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSequence + 1 }
            : { deliver_policy: DeliverPolicy.New }),
        } satisfies Partial<OrderedConsumerOptions>);
        this.messages = await consumer.consume({ max_messages: 512 });
        if (this.stopping) {
          this.messages.stop();
          break;
        }
        if (streak.reset()) this.logger.log('Listening to the events stream again');
        for await (const message of this.messages) {
          this.lastSequence = message.seq;
          const event = this.translate(message);
          if (event) this.publish(event);
        }
        if (!this.stopping) throw new Error('the consumer ended');
      } catch (error) {
        if (this.stopping) break;
        const wait = streak.fail();
        if (streak.worthLogging) {
          this.logger.warn(`Listening to the events stream: ${(error as Error).message}; trying again`);
        }
        await sleep(wait, undefined, { signal: this.stopped.signal }).catch(() => undefined);
      }
    }
  }

  private translate(message: JsMsg): LiveEvent | undefined {
    const subject = message.subject.startsWith(this.prefix) ? message.subject.slice(this.prefix.length) : '';
    return isLiveSubject(subject) ? liveEventOf(subject, message.seq, safeJson(message)) : undefined;
  }

  private publish(event: LiveEvent): void {
    for (const listener of this.listeners.get(event.userId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`An event stream refused event ${event.id}: ${(error as Error).message}`);
      }
    }
  }
}

function safeJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
