import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamManager,
  JetStreamApiError,
  RetentionPolicy,
  type StreamConfig,
  StorageType,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { type NatsSettings, namespaced, namespacedStream } from './nats.js';

export interface StreamSpec {
  /** Without the namespace (`EVENTS`). */
  name: string;
  /** The subject prefix it holds, without the namespace (`events`): the stream takes `<prefix>.>`. */
  subjectPrefix: string;
  retention: 'limits' | 'workqueue';
  maxAgeMs: number;
  /** Messages with a Nats-Msg-Id seen within this window are dropped as duplicates. */
  duplicateWindowMs: number;
  /** A size cap as well as the age (oldest messages go first); unset: no cap. */
  maxBytes?: number;
}

const isNotFound = (error: unknown) => error instanceof JetStreamApiError && error.status === 404;

/**
 * Creates a stream, or brings an existing one's limits in line with the spec. Replicas started
 * together may race to create it: the loser reads the winner's.
 */
export async function ensureStream(jsm: JetStreamManager, settings: NatsSettings, spec: StreamSpec): Promise<string> {
  const name = namespacedStream(settings, spec.name);
  const limits = {
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(spec.duplicateWindowMs),
    max_bytes: spec.maxBytes ?? -1,
    num_replicas: settings.replicas ?? 1,
  } satisfies Partial<StreamConfig>;
  try {
    const info = await jsm.streams.info(name);
    const drifted = (Object.keys(limits) as (keyof typeof limits)[]).some((key) => info.config[key] !== limits[key]);
    if (drifted) await jsm.streams.update(name, limits);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add({
        name,
        subjects: [`${namespaced(settings, spec.subjectPrefix)}.>`],
        storage: StorageType.File,
        retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
        ...limits,
      });
    } catch (raced) {
      if (!(raced instanceof JetStreamApiError)) throw raced;
      // Another replica created it first; or the server refused the spec, which is the error to tell.
      await jsm.streams.info(name).catch((error: unknown) => {
        throw isNotFound(error) ? raced : error;
      });
    }
  }
  return name;
}

export interface ConsumerSpec {
  durable: string;
  /** Without the namespace. */
  filterSubject: string;
  ackWaitMs: number;
  /** Deliveries before JetStream stops offering a message; -1: no limit (the handler decides). */
  maxDeliver: number;
  /** Messages delivered and not yet acknowledged, across every replica. */
  maxAckPending: number;
}

/**
 * Creates a durable pull consumer with explicit acks, or brings an existing one in line with the
 * spec: its tunables are updated in place; a different filter means a different consumer, so it
 * is recreated (its messages stay in the stream and are delivered again).
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  settings: NatsSettings,
  stream: string,
  spec: ConsumerSpec,
): Promise<void> {
  const tunable = {
    ack_wait: nanos(spec.ackWaitMs),
    max_deliver: spec.maxDeliver,
    max_ack_pending: spec.maxAckPending,
  } satisfies Partial<ConsumerConfig>;
  const filter = namespaced(settings, spec.filterSubject);
  try {
    const info = await jsm.consumers.info(stream, spec.durable);
    if (info.config.filter_subject !== filter) {
      await jsm.consumers.delete(stream, spec.durable);
    } else {
      const drifted = (Object.keys(tunable) as (keyof typeof tunable)[]).some(
        (key) => info.config[key] !== tunable[key],
      );
      if (drifted) await jsm.consumers.update(stream, spec.durable, tunable);
      return;
    }
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    await jsm.consumers.add(stream, {
      durable_name: spec.durable,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...tunable,
    });
  } catch (raced) {
    if (!(raced instanceof JetStreamApiError)) throw raced;
    await jsm.consumers.info(stream, spec.durable).catch((error: unknown) => {
      throw isNotFound(error) ? raced : error;
    });
  }
}
