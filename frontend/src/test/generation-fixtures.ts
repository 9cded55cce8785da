import type { GenerationJob } from '@likeness/contracts';

export const JOB_ID = '5b0f1c2e-8a3d-4c7b-9e21-3f6a7d9c1b42';

/** A generation job as GET /api/generation-jobs(/{jobId}) answers it; pending unless told otherwise. */
export function makeJob(overrides: Partial<GenerationJob> = {}): GenerationJob {
  return {
    id: JOB_ID,
    customModelId: 1,
    promptText: 'word1 high quality portrait',
    numOutputs: 4,
    status: 'pending',
    stage: 'queued',
    avatarIds: [],
    failureReason: null,
    createdAt: new Date(Date.UTC(2026, 10, 23, 12)).toISOString(),
    completedAt: null,
    ...overrides,
  };
}

/** The same job, completed with the given avatars. */
export function completedJob(avatarIds: number[] = [11, 12, 13, 14], overrides: Partial<GenerationJob> = {}) {
  return makeJob({
    status: 'completed',
    stage: null,
    avatarIds,
    completedAt: new Date(Date.UTC(2026, 10, 23, 12, 1)).toISOString(),
    ...overrides,
  });
}
