import { z } from 'zod';
import { defineEvent } from '../events.js';

const base = {
  modelId: z.number().int().positive(),
  userId: z.number().int().positive(),
  /** The billing hold of the training's 30 credits. */
  holdReference: z.string(),
};

export const TrainingStarted = defineEvent({
  service: 'training',
  name: 'TrainingStarted',
  version: 1,
  payload: z.object({ ...base, provider: z.enum(['replicate', 'local']), trainingJobId: z.string() }),
});

/** Everything generation needs to run the model. Billing captures the hold on it. */
export const TrainingCompleted = defineEvent({
  service: 'training',
  name: 'TrainingCompleted',
  version: 1,
  payload: z.object({
    ...base,
    modelName: z.string(),
    triggerWord: z.string(),
    provider: z.enum(['replicate', 'local']),
    version: z.string(),
    /** Storage keys of the selfies it was trained on (the local generator draws on them). */
    imageKeys: z.array(z.string()),
  }),
});

/** Billing releases the hold on it: a failed, cancelled or timed-out training costs nothing. */
export const TrainingFailed = defineEvent({
  service: 'training',
  name: 'TrainingFailed',
  version: 1,
  payload: z.object({ ...base, reason: z.string() }),
});
