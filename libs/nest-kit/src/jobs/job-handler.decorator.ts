import type { EventEnvelope, JobDefinition, JobPayload } from '@likeness/contracts';
import { SetMetadata } from '@nestjs/common';
import type { BackoffPolicy } from '../resilience/backoff.js';

export const JOB_HANDLER_METADATA = Symbol('JOB_HANDLER_METADATA');

export interface JobContext {
  /** 1 on the first attempt. Past `maxAttempts` the job is given up without running. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the process must hand the job back (shutdown past its grace period). */
  signal: AbortSignal;
  envelope: EventEnvelope;
}

export interface JobOptions {
  /** Jobs one process runs at once; it pulls only when a slot is free. */
  concurrency: number;
  /** How long the queue waits for word from a worker before giving its job to another (heartbeats keep it). */
  ackWaitMs: number;
  /** Attempts before the job is given up. */
  maxAttempts: number;
  /** The wait before each retry (default: 1 s, doubling, at most a minute). */
  backoff?: BackoffPolicy;
}

/**
 * A class that does one kind of job: `run` does it (throwing means "try again later"); `giveUp`
 * settles it as failed once the attempts are spent (it may run more than once if it throws, and
 * must be idempotent).
 */
export interface JobProcessor<J extends JobDefinition> {
  run(payload: JobPayload<J>, context: JobContext): Promise<unknown>;
  giveUp(payload: JobPayload<J>, error: unknown, context: JobContext): Promise<void>;
}

export interface JobHandlerMetadata {
  job: JobDefinition;
  /** Resolved against the app's config when the workers start. */
  options: JobOptions | ((config: never) => JobOptions);
}

/**
 * Makes a provider the worker of a job: the kit pulls the job's messages from its durable
 * consumer (only when a slot is free), keeps running ones alive with heartbeats, retries
 * failures with a growing delay, calls `giveUp` after the last attempt, and drains on shutdown.
 * Options can depend on the app's config: `@JobHandler(job, (config: MyConfig) => ({ ... }))`.
 */
export function JobHandler<J extends JobDefinition, C>(job: J, options: JobOptions | ((config: C) => JobOptions)) {
  const metadata: JobHandlerMetadata = { job, options: options as JobHandlerMetadata['options'] };
  return <T extends abstract new (...args: never[]) => JobProcessor<J>>(target: T): void => {
    SetMetadata(JOB_HANDLER_METADATA, metadata)(target);
  };
}
