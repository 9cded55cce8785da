import { generationJobSchema, type GenerationJob } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';

export const GENERATION_JOBS_PATH = '/api/generation-jobs';

/** One job's path, also its query's key: the live events update it, the Create page reads it. */
export function generationJobPath(jobId: string): string {
  return `${GENERATION_JOBS_PATH}/${encodeURIComponent(jobId)}`;
}

const generationJobsSchema = z.array(generationJobSchema);

/** GET /api/generation-jobs: the user's generation jobs, newest first. */
export function getGenerationJobs({ signal }: { signal?: AbortSignal } = {}): Promise<GenerationJob[]> {
  return apiRequest('GET', GENERATION_JOBS_PATH, { schema: generationJobsSchema, signal });
}

export function generationJobsQueryOptions() {
  return queryOptions({
    queryKey: [GENERATION_JOBS_PATH],
    queryFn: getGenerationJobs,
    // Jobs finish on the server while no screen watches.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** SPEC §2: the dashboard's "Generations" counts the completed jobs. */
export function countCompletedJobs(jobs: readonly GenerationJob[]): number {
  return jobs.filter((job) => job.status === 'completed').length;
}

export function useGenerationJobs() {
  return useQuery(generationJobsQueryOptions());
}
