import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process, served at /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const rpcMetrics = {
  duration: new Histogram({
    name: 'likeness_rpc_handler_seconds',
    help: 'Time spent handling request/reply calls, by subject and outcome',
    labelNames: ['subject', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  }),
};

export const eventMetrics = {
  published: new Counter({
    name: 'likeness_outbox_published_total',
    help: 'Events and jobs the outbox relay published to JetStream, by type (e.g. training.TrainingFailed): each committed once',
    labelNames: ['type'] as const,
    registers: [metricsRegistry],
  }),
  pending: new Gauge({
    name: 'likeness_outbox_pending',
    help: 'Events written to the outbox and not yet published',
    registers: [metricsRegistry],
  }),
  consumed: new Counter({
    name: 'likeness_events_consumed_total',
    help: 'Events handled by durable consumers, by event type and outcome (handled, duplicate, retried, dead_lettered, malformed)',
    labelNames: ['type', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  oldestPendingSeconds: new Gauge({
    name: 'likeness_outbox_oldest_pending_seconds',
    help: 'Age of the oldest event written to the outbox and not yet published (0 when none waits)',
    registers: [metricsRegistry],
  }),
  deadLetters: new Gauge({
    name: 'likeness_dead_letters',
    help: 'Events parked after every attempt failed, waiting for an operator to replay them',
    registers: [metricsRegistry],
  }),
};

export const jobMetrics = {
  outcomes: new Counter({
    name: 'likeness_jobs_total',
    help: 'Work-queue deliveries by job and outcome (done, retried, gave_up, handed_back, malformed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  duration: new Histogram({
    name: 'likeness_job_seconds',
    help: 'Time one delivery of a job took, by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [metricsRegistry],
  }),
};

export const periodicMetrics = {
  runs: new Counter({
    name: 'likeness_periodic_runs_total',
    help: 'Runs of periodic tasks by task and outcome (ok, failed, skipped: another replica held the lock)',
    labelNames: ['task', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
};

export const readModelMetrics = {
  lag: new Histogram({
    name: 'likeness_read_model_lag_seconds',
    help: 'Time from an event happening (its occurredAt) to a read model applying it, by event type',
    labelNames: ['type'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [metricsRegistry],
  }),
};
