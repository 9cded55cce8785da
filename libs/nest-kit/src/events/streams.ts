import { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX } from '@likeness/contracts';
import { type JetStreamManager, JetStreamApiError, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { type NatsSettings, namespaced, namespacedStream } from '../messaging/nats.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The stream of domain events: kept 30 days, duplicates (same Nats-Msg-Id) dropped within 2 minutes. */
export async function ensureEventsStream(jsm: JetStreamManager, settings: NatsSettings): Promise<string> {
  const name = namespacedStream(settings, EVENTS_STREAM);
  const config = {
    name,
    subjects: [`${namespaced(settings, EVENTS_SUBJECT_PREFIX)}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(30 * DAY_MS),
    duplicate_window: nanos(2 * 60 * 1000),
  };
  try {
    await jsm.streams.info(name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.status !== 404) throw error;
    try {
      await jsm.streams.add(config);
    } catch (raced) {
      // Another replica created it first: that is fine.
      if (!(raced instanceof JetStreamApiError)) throw raced;
      await jsm.streams.info(name);
    }
  }
  return name;
}
