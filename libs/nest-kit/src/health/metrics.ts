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
    help: 'Events the outbox relay published to JetStream',
    registers: [metricsRegistry],
  }),
  pending: new Gauge({
    name: 'likeness_outbox_pending',
    help: 'Events written to the outbox and not yet published',
    registers: [metricsRegistry],
  }),
  consumed: new Counter({
    name: 'likeness_events_consumed_total',
    help: 'Events handled by durable consumers, by event type and outcome',
    labelNames: ['type', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
};
