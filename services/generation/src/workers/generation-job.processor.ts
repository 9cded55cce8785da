import { type RunGenerationJob, runGenerationJob } from '@likeness/contracts';
import { type JobContext, JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { GenerationConfig } from '../generation.config.js';
import { JobRunner } from './job-runner.js';

/**
 * A worker process's share of the queue (the kit runs the loop): WORKER_CONCURRENCY jobs at
 * once, each kept alive while it runs, retried with a growing delay, and failed (credits back)
 * once JOB_MAX_ATTEMPTS are spent.
 */
@Injectable()
@JobHandler(runGenerationJob, (config: GenerationConfig) => ({
  concurrency: config.WORKER_CONCURRENCY,
  ackWaitMs: config.JOB_ACK_WAIT_MS,
  maxAttempts: config.JOB_MAX_ATTEMPTS,
}))
export class GenerationJobProcessor implements JobProcessor<typeof runGenerationJob> {
  constructor(private readonly runner: JobRunner) {}

  run({ jobId }: RunGenerationJob, { attempt, signal }: JobContext) {
    return this.runner.run(jobId, attempt, signal);
  }

  giveUp({ jobId }: RunGenerationJob, error: unknown) {
    return this.runner.giveUp(jobId, error);
  }
}
