import { z } from 'zod';
import { defineJob } from '../jobs.js';

/** The lane of runGenerationJob that workers drain first. */
export const GENERATION_PRIORITY_LANE = 'priority';

/**
 * Runs one generation job (DESIGN.md §2). A message only names the job; the job's row is the
 * truth, so a message delivered twice does no harm.
 */
export const runGenerationJob = defineJob({
  queue: 'generation',
  name: 'run',
  version: 1,
  consumer: 'generation-workers',
  payload: z.object({ jobId: z.uuid() }),
  // One subject per job: the sweeper can tell a job waiting in a backlog from one whose message is gone.
  key: ({ jobId }) => jobId,
  // Accounts with priority generation (billing's GENERATION_PRIORITY) go first; 1 pull in 10 still takes a standard job.
  lanes: { names: [GENERATION_PRIORITY_LANE], standardShare: 10 },
});
export type RunGenerationJob = z.infer<typeof runGenerationJob.payload>;

/**
 * Cancels the provider's predictions of a deleted user's jobs (the provider charges while they
 * run and nobody will take their images). The jobs' rows are gone when it is queued; cancelling
 * a prediction that has ended changes nothing, so a retry does no harm. Taken by workers, which
 * hold the provider.
 */
export const cancelUserPredictions = defineJob({
  queue: 'generation',
  name: 'cancel-user-predictions',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    provider: z.enum(['replicate', 'local']),
    predictionIds: z.array(z.string().min(1)).min(1),
  }),
  key: ({ userId }) => `user-${userId}`,
});
export type CancelUserPredictions = z.infer<typeof cancelUserPredictions.payload>;
