import { z } from 'zod';
import { rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import { snapshotPageSchema, snapshotRequestSchema } from '../snapshots.js';
import { replicateWebhookDeliverySchema } from '../training/training.rpc.js';
import {
  generateAvatarRequestSchema,
  generateAvatarResponseSchema,
  generationJobSchema,
} from './generation.schemas.js';

const userId = rowIdSchema;

/** Holds 5 credits and queues the job; 404 for a model that is not the caller's, 409 while it is not ready. */
export const generateAvatar = defineRpc({
  subject: 'generation.jobs.create',
  request: generateAvatarRequestSchema.extend({ userId }),
  response: generateAvatarResponseSchema,
});

/** The caller's jobs, newest first. */
export const listJobs = defineRpc({
  subject: 'generation.jobs.list',
  request: z.object({ userId }),
  response: z.array(generationJobSchema),
});

/** One of the caller's jobs; 404 for anyone else's. */
export const getJob = defineRpc({
  subject: 'generation.jobs.get',
  request: z.object({ userId, jobId: z.uuid() }),
  response: generationJobSchema,
});

/**
 * A prediction's webhook (Replicate's, or the local generator's, signed alike), for the job its URL
 * names: once verified, the worker waiting on that job's prediction reads it at once.
 */
export const handlePredictionWebhook = defineRpc({
  subject: 'generation.webhooks.prediction',
  request: replicateWebhookDeliverySchema.extend({ jobId: z.uuid() }),
  response: z.object({ received: z.literal(true) }),
});

/** Reporting's rebuild: every job, by id. */
export const snapshotJobs = defineRpc({
  subject: 'generation.snapshot.jobs',
  request: snapshotRequestSchema(z.uuid()),
  response: snapshotPageSchema(
    z.object({
      jobId: z.uuid(),
      userId: rowIdSchema,
      promptText: z.string(),
      numOutputs: z.number().int().positive(),
      status: z.enum(['pending', 'completed', 'failed']),
      failureReason: z.string().nullable(),
      createdAt: z.iso.datetime(),
      finishedAt: z.iso.datetime().nullable(),
    }),
    z.uuid(),
  ),
});
