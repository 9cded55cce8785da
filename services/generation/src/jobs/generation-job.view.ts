import type { GenerationJob as GenerationJobView } from '@likeness/contracts';
import type { GenerationJob } from './generation-job.entity.js';

/** What a person sees of a job (GET /api/generation-jobs). */
export function toJobView(job: GenerationJob): GenerationJobView {
  return {
    id: job.id,
    customModelId: job.customModelId,
    promptText: job.promptText,
    numOutputs: job.numOutputs,
    status: job.status,
    avatarIds: job.results?.avatarIds ?? [],
    failureReason: job.status === 'failed' ? job.failureReason : null,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}
