import { JOBS_STREAM, type JobDefinition, type JobLane, jobLaneConsumer, jobLaneSubject } from '@likeness/contracts';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../health/metrics.js';
import { type NatsSettings, namespaced, namespacedStream } from '../messaging/nats.js';

/** A scrape reads the queue once, however many of the gauges below it collects. */
const SNAPSHOT_TTL_MS = 1_000;

interface QueueState {
  waiting: number;
  inProgress: number;
  oldestSeconds: number;
}

/** Reads one job's queue: the durable consumer's counts and the oldest message still in the stream. */
export type QueueProbe = { job: string; read: () => Promise<QueueState> };

const probes = new Map<string, QueueProbe>();
let snapshot: { at: number; states: Promise<Map<string, QueueState>> } | undefined;

function readQueues(): Promise<Map<string, QueueState>> {
  if (snapshot && Date.now() - snapshot.at < SNAPSHOT_TTL_MS) return snapshot.states;
  const states = Promise.all(
    [...probes.values()].map(async (probe) => [probe.job, await probe.read().catch(() => undefined)] as const),
  ).then((entries) => new Map(entries.filter((entry): entry is [string, QueueState] => entry[1] !== undefined)));
  snapshot = { at: Date.now(), states };
  return states;
}

function queueGauge(name: string, help: string, pick: (state: QueueState) => number): Gauge<'job'> {
  return new Gauge({
    name,
    help,
    labelNames: ['job'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const [job, state] of await readQueues()) this.set({ job }, pick(state));
    },
  });
}

export const jobQueueMetrics = {
  waiting: queueGauge(
    'likeness_job_queue_waiting',
    'Jobs queued and not yet taken by a worker, by job',
    (state) => state.waiting,
  ),
  inProgress: queueGauge(
    'likeness_job_queue_in_progress',
    'Jobs a worker holds and has not finished, by job',
    (state) => state.inProgress,
  ),
  oldestSeconds: queueGauge(
    'likeness_job_queue_oldest_seconds',
    'Age of the oldest job still in the queue (waiting or held), by job; 0 when the queue is empty',
    (state) => state.oldestSeconds,
  ),
};

interface StreamMessageAnswer {
  message?: { time: string };
  error?: { code: number };
}

/**
 * Reports a job's queue (one lane of it) while this process works it. The oldest message comes from the
 * stream's "next message on these subjects" lookup (NATS 2.9): with work-queue retention the
 * stream holds exactly the jobs not yet acknowledged.
 */
export function watchJobQueue(
  job: JobDefinition,
  lane: JobLane,
  nats: NatsConnection,
  jsm: JetStreamManager,
  settings: NatsSettings,
): () => void {
  const stream = namespacedStream(settings, JOBS_STREAM);
  // Each lane is a queue of its own: `jobs.generation.generate.v1-priority` beside the standard one.
  const label = jobLaneSubject(job, lane);
  const read = async (): Promise<QueueState> => {
    const info = await jsm.consumers.info(stream, jobLaneConsumer(job, lane));
    const reply = await nats.request(
      `$JS.API.STREAM.MSG.GET.${stream}`,
      JSON.stringify({ seq: 1, next_by_subj: namespaced(settings, `${label}.>`) }),
      { timeout: 2_000 },
    );
    const answer = reply.json<StreamMessageAnswer>();
    const oldest = answer.message ? Date.parse(answer.message.time) : Number.NaN;
    return {
      waiting: info.num_pending,
      inProgress: info.num_ack_pending,
      oldestSeconds: Number.isNaN(oldest) ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
    };
  };
  probes.set(label, { job: label, read });
  return () => {
    if (probes.get(label)?.read === read) probes.delete(label);
  };
}
