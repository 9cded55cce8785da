import { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX } from '@likeness/contracts';
import type { JetStreamManager } from '@nats-io/jetstream';
import { ensureStream } from '../messaging/jetstream-setup.js';
import type { NatsSettings } from '../messaging/nats.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The stream of domain events: kept 30 days (and under EVENTS_MAX_BYTES when set), duplicates
 * (same Nats-Msg-Id) dropped within 2 minutes.
 */
export function ensureEventsStream(jsm: JetStreamManager, settings: NatsSettings): Promise<string> {
  return ensureStream(jsm, settings, {
    name: EVENTS_STREAM,
    subjectPrefix: EVENTS_SUBJECT_PREFIX,
    retention: 'limits',
    maxAgeMs: 30 * DAY_MS,
    duplicateWindowMs: 2 * 60 * 1000,
    ...(settings.eventsMaxBytes ? { maxBytes: settings.eventsMaxBytes } : {}),
  });
}
