import { z } from 'zod';
import { defineEvent } from '../events.js';
import { generationJobStageSchema } from './generation.schemas.js';

const base = {
  jobId: z.uuid(),
  userId: z.number().int().positive(),
  /** The billing hold of the run's 5 credits (`generation:<jobId>`). */
  holdReference: z.string(),
};

export const GenerationRequested = defineEvent({
  service: 'generation',
  name: 'GenerationRequested',
  version: 1,
  payload: z.object({
    ...base,
    customModelId: z.number().int().positive(),
    promptText: z.string(),
    numOutputs: z.number().int().min(1).max(4),
  }),
});

/**
 * A pending job moved on: a worker's attempt started generating, its images started being kept
 * (`saving`), or one more of them was kept. Carries the job's stage and every avatar kept so far
 * after the change, so the newest one tells the whole story. Only the waiting screen needs it.
 */
export const GenerationProgressed = defineEvent({
  service: 'generation',
  name: 'GenerationProgressed',
  version: 1,
  payload: z.object({
    jobId: z.uuid(),
    userId: z.number().int().positive(),
    stage: generationJobStageSchema,
    avatarIds: z.array(z.number().int().positive()),
  }),
});

/** Billing captures the hold on it. */
export const GenerationCompleted = defineEvent({
  service: 'generation',
  name: 'GenerationCompleted',
  version: 1,
  payload: z.object({
    ...base,
    customModelId: z.number().int().positive(),
    promptText: z.string(),
    avatarIds: z.array(z.number().int().positive()),
  }),
});

/** Billing releases the hold on it: a failed job costs nothing. */
export const GenerationFailed = defineEvent({
  service: 'generation',
  name: 'GenerationFailed',
  version: 1,
  payload: z.object({ ...base, reason: z.string() }),
});
