import { z } from 'zod';

/**
 * The work queue (DESIGN.md §2): JetStream stream `JOBS` with work-queue retention, one durable
 * consumer shared by every generation worker. A message only names the job; the job's row is the
 * truth, so a message delivered twice does no harm.
 */
export const JOBS_STREAM = 'JOBS';
export const JOBS_SUBJECT_PREFIX = 'jobs';
export const GENERATION_WORKERS_CONSUMER = 'generation-workers';

export const runGenerationJob = {
  subject: 'jobs.generation.run',
  payload: z.object({ jobId: z.uuid() }),
} as const;
export type RunGenerationJob = z.infer<typeof runGenerationJob.payload>;
