import { metricsRegistry } from '@likeness/nest-kit';
import { Counter, Histogram } from 'prom-client';

/**
 * Where one attempt at a job spends its time, in order: waiting in the queue for its first
 * attempt (from the request), reading the model from training, starting the prediction at the
 * provider, the prediction running there, downloading each output (Replicate's URLs; local
 * outputs are already in storage), and media storing each as an avatar.
 */
export type GenerationStage = 'queued' | 'model' | 'start' | 'prediction' | 'download' | 'store';

/** The calls to the provider (and to media, for what the provider made) whose errors are counted. */
export type ProviderOperation = 'start' | 'poll' | 'cancel' | 'discard' | 'download' | 'store';

/**
 * What went wrong with a provider call: it answered 429 (rate_limited) or 5xx (server_error), gave
 * no answer in time (timeout) or could not be reached (unreachable), refused the request with
 * another 4xx (rejected), or made an output we cannot keep (invalid_output).
 */
export type ProviderErrorKind =
  'rate_limited' | 'server_error' | 'timeout' | 'unreachable' | 'rejected' | 'invalid_output';

/** How a job ended: completed, or the cause of its failure (one word per kind of FailureReasons). */
export type JobOutcome =
  | 'completed'
  | 'model_gone'
  | 'provider_refused'
  | 'prediction_failed'
  | 'prediction_canceled'
  | 'timed_out'
  | 'invalid_output'
  | 'gave_up'
  | 'abandoned';

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

/**
 * Generation's own metrics, beside the kit's per-delivery ones (`likeness_jobs_total`,
 * `likeness_job_seconds`) and queue gauges. Every label has a handful of values: never a job,
 * user or prediction id.
 */
export const generationMetrics = {
  stageSeconds: new Histogram({
    name: 'likeness_generation_stage_seconds',
    help: 'Time one attempt at a generation job spent in each stage (queued, model, start, prediction, download, store), by provider',
    labelNames: ['stage', 'provider'] as const,
    buckets: DURATION_BUCKETS,
    registers: [metricsRegistry],
  }),
  outcomes: new Counter({
    name: 'likeness_generation_outcomes_total',
    help: 'Generation jobs ended, by outcome: completed, or why they failed (model_gone, provider_refused, prediction_failed, prediction_canceled, timed_out, invalid_output, gave_up, abandoned)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  jobSeconds: new Histogram({
    name: 'likeness_generation_job_seconds',
    help: 'Time from a generation request to its job ending, by result (completed, failed)',
    labelNames: ['result'] as const,
    buckets: DURATION_BUCKETS,
    registers: [metricsRegistry],
  }),
  attempts: new Histogram({
    name: 'likeness_generation_attempts',
    help: 'Attempts a generation job took before it ended, by result (completed, failed)',
    labelNames: ['result'] as const,
    buckets: [1, 2, 3, 4, 5, 6, 8, 10],
    registers: [metricsRegistry],
  }),
  providerErrors: new Counter({
    name: 'likeness_generation_provider_errors_total',
    help: 'Failed calls to the image provider by provider, operation (start, poll, cancel, discard, download, store) and kind (rate_limited, server_error, timeout, unreachable, rejected, invalid_output)',
    labelNames: ['provider', 'operation', 'kind'] as const,
    registers: [metricsRegistry],
  }),
  rateLimitWaitSeconds: new Histogram({
    name: 'likeness_generation_rate_limit_wait_seconds',
    help: 'Time a worker waited for the shared provider budget (PROVIDER_RATE_LIMIT_PER_MINUTE) before starting a prediction, observed only when it had to wait: _count is the waits, _sum the seconds waited',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [metricsRegistry],
  }),
};

/** Records a job's end: its outcome, its time from the request and the attempts it took. */
export function recordJobEnded(outcome: JobOutcome, job: { createdAt: Date; endedAt: Date; attempts: number }): void {
  const result = outcome === 'completed' ? 'completed' : 'failed';
  generationMetrics.outcomes.inc({ outcome });
  generationMetrics.jobSeconds.observe({ result }, Math.max(0, job.endedAt.getTime() - job.createdAt.getTime()) / 1000);
  generationMetrics.attempts.observe({ result }, job.attempts);
}
