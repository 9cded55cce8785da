import { z } from 'zod';
import { defineEvent } from '../events.js';

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
