import { generationJobSchema, type GenerationJob } from '@likeness/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { generationJobPath } from '@/lib/generation-jobs/get-generation-jobs';

/** GET /api/generation-jobs/{jobId}: one of the user's jobs, its status and (once completed) its avatars. */
export function getGenerationJob(jobId: string, { signal }: { signal?: AbortSignal } = {}): Promise<GenerationJob> {
  return apiRequest('GET', generationJobPath(jobId), { schema: generationJobSchema, signal });
}

/** Its own key, not under the list's: refreshing the list does not poll a job again. */
export function generationJobQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: [generationJobPath(jobId)],
    queryFn: ({ signal }) => getGenerationJob(jobId, { signal }),
  });
}
