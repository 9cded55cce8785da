import {
  JOBS_STREAM,
  JOBS_SUBJECT_PREFIX,
  type JobDefinition,
  jobLanesOf,
  jobMessageSubject,
} from '@likeness/contracts';
import type { JetStreamManager } from '@nats-io/jetstream';
import { ensureStream } from '../messaging/jetstream-setup.js';
import { type NatsSettings, namespaced } from '../messaging/nats.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The work queue (DESIGN.md §2): work-queue retention, so a job's message is gone once a worker
 * acknowledges it; duplicates (the outbox's Nats-Msg-Id) dropped within 2 minutes.
 */
export function ensureJobsStream(jsm: JetStreamManager, settings: NatsSettings): Promise<string> {
  return ensureStream(jsm, settings, {
    name: JOBS_STREAM,
    subjectPrefix: JOBS_SUBJECT_PREFIX,
    retention: 'workqueue',
    maxAgeMs: DAY_MS,
    duplicateWindowMs: 2 * 60 * 1000,
  });
}

/**
 * Whether a job's message is still in the queue, in any of its lanes (waiting, or held by a
 * worker): only then can a worker still do it. Once acknowledged, purged or expired, it is gone.
 */
export async function isJobQueued(
  jsm: JetStreamManager,
  settings: NatsSettings,
  job: JobDefinition,
  key: string,
): Promise<boolean> {
  const stream = await ensureJobsStream(jsm, settings);
  for (const lane of jobLanesOf(job)) {
    // The client answers null when the stream holds no message on that subject.
    const message = await jsm.streams.getMessage(stream, {
      last_by_subj: namespaced(settings, jobMessageSubject(job, key, lane)),
    });
    if (message !== null) return true;
  }
  return false;
}
