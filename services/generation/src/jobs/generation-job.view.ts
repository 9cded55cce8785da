import type { GenerationJobStage, GenerationJob as GenerationJobView } from '@likeness/contracts';
import type { GenerationJob } from './generation-job.entity.js';

/** What a person sees of a job (GET /api/generation-jobs). */
export function toJobView(job: GenerationJob): GenerationJobView {
  return {
    id: job.id,
    customModelId: job.customModelId,
    promptText: job.promptText,
    numOutputs: job.numOutputs,
    status: job.status,
    stage: stageOf(job),
    avatarIds: job.results?.avatarIds ?? [],
    failureReason: job.status === 'failed' ? job.failureReason : null,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}

/**
 * A pending job's stage, from what its worker has written: no attempt yet is queued; an attempt
 * without results is generating; results (even an empty list) mean its images are being kept.
 */
function stageOf(job: GenerationJob): GenerationJobStage | null {
  if (job.status !== 'pending') return null;
  if (job.attempts === 0) return 'queued';
  return job.results ? 'saving' : 'generating';
}
