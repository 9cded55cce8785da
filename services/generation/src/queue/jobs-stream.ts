import { GENERATION_WORKERS_CONSUMER, JOBS_STREAM, JOBS_SUBJECT_PREFIX, runGenerationJob } from '@likeness/contracts';
import { type NatsSettings, namespaced, namespacedStream } from '@likeness/nest-kit';
import {
  AckPolicy,
  DeliverPolicy,
  type JetStreamManager,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

const DAY_MS = 24 * 60 * 60 * 1000;

const isNotFound = (error: unknown) => error instanceof JetStreamApiError && error.status === 404;

/**
 * The work queue (DESIGN.md §2): work-queue retention, so a job's message is gone once a worker
 * acknowledges it; duplicates (the outbox's Nats-Msg-Id) dropped within 2 minutes.
 */
export async function ensureJobsStream(jsm: JetStreamManager, settings: NatsSettings): Promise<string> {
  const name = namespacedStream(settings, JOBS_STREAM);
  try {
    await jsm.streams.info(name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add({
        name,
        subjects: [`${namespaced(settings, JOBS_SUBJECT_PREFIX)}.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
        max_age: nanos(DAY_MS),
        duplicate_window: nanos(2 * 60 * 1000),
      });
    } catch (raced) {
      // Another replica created it first: that is fine.
      if (!(raced instanceof JetStreamApiError)) throw raced;
      await jsm.streams.info(name);
    }
  }
  return name;
}

export interface WorkersConsumerSettings {
  ackWaitMs: number;
  /** Deliveries before JetStream stops: one more than the attempts, so the last one can fail the job. */
  maxDeliver: number;
}

/** The one durable consumer every worker replica pulls from; its settings follow the configuration. */
export async function ensureWorkersConsumer(
  jsm: JetStreamManager,
  settings: NatsSettings,
  consumer: WorkersConsumerSettings,
): Promise<{ stream: string; durable: string }> {
  const stream = await ensureJobsStream(jsm, settings);
  const durable = GENERATION_WORKERS_CONSUMER;
  const tunable = { ack_wait: nanos(consumer.ackWaitMs), max_deliver: consumer.maxDeliver, max_ack_pending: 1_000 };
  try {
    const info = await jsm.consumers.info(stream, durable);
    if (
      info.config.ack_wait !== tunable.ack_wait ||
      info.config.max_deliver !== tunable.max_deliver ||
      info.config.max_ack_pending !== tunable.max_ack_pending
    ) {
      await jsm.consumers.update(stream, durable, tunable);
    }
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.consumers
      .add(stream, {
        durable_name: durable,
        filter_subject: namespaced(settings, runGenerationJob.subject),
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...tunable,
      })
      .catch(async (raced: unknown) => {
        if (!(raced instanceof JetStreamApiError)) throw raced;
        await jsm.consumers.info(stream, durable);
      });
  }
  return { stream, durable };
}
