import { z } from 'zod';
import { defineJob } from '../jobs.js';

/**
 * Erases what the inference provider keeps for a deleted user: the trainings still running are
 * cancelled and the destination models deleted. Training's rows are gone when it is queued (they
 * are named here), and each provider call is idempotent, so a retry does no harm.
 */
export const eraseProviderModels = defineJob({
  queue: 'training',
  name: 'erase-provider-models',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    /** The provider the models were trained on: only that adapter can reach them. */
    provider: z.enum(['replicate', 'local']),
    trainingIds: z.array(z.string().min(1)),
    destinations: z.array(z.string().min(1)),
  }),
  key: ({ userId, provider }) => `${provider}-user-${userId}`,
});
export type EraseProviderModels = z.infer<typeof eraseProviderModels.payload>;
