import { z } from 'zod';
import { rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import { snapshotPageSchema, snapshotRequestSchema } from '../snapshots.js';
import { customModelSchema, inferenceConfigSchema, trainModelRequestSchema } from './training.schemas.js';

const userId = rowIdSchema;

/** Holds 30 credits, locks the selfies and starts the training; 409 while another runs. */
export const trainModel = defineRpc({
  subject: 'training.models.train',
  request: trainModelRequestSchema.extend({ userId }),
  response: customModelSchema,
});

export const listModels = defineRpc({
  subject: 'training.models.list',
  request: z.object({ userId }),
  response: z.array(customModelSchema),
});

/** Refused while the model trains; removes the provider's model too. */
export const deleteModel = defineRpc({
  subject: 'training.models.delete',
  request: z.object({ userId, id: rowIdSchema }),
  response: z.object({ deleted: z.literal(true) }),
});

/** What generation needs to run a model, if it is the user's and completed. */
export const getRunnableModel = defineRpc({
  subject: 'training.models.runnable',
  request: z.object({ userId, id: rowIdSchema }),
  response: z.object({
    id: z.number().int(),
    triggerWord: z.string(),
    version: z.string(),
    /** Storage keys of the selfies it was trained on (the local generator draws on them). */
    imageKeys: z.array(z.string()),
  }),
});

export const getInferenceConfig = defineRpc({
  subject: 'training.inference.config',
  request: z.object({}),
  response: inferenceConfigSchema,
});

/** A Replicate webhook as received (trainings' and predictions'): the signature covers the exact bytes. */
export const replicateWebhookDeliverySchema = z.object({
  payload: z.string().max(512 * 1024),
  headers: z.object({
    'webhook-id': z.string().max(256).optional(),
    'webhook-timestamp': z.string().max(32).optional(),
    'webhook-signature': z.string().max(2048).optional(),
  }),
});

export const handleReplicateWebhook = defineRpc({
  subject: 'training.webhooks.replicate',
  request: replicateWebhookDeliverySchema.extend({
    /** Which of our models the webhook URL named. */
    modelId: rowIdSchema.optional(),
  }),
  response: z.object({ received: z.literal(true) }),
});

/** Reporting's rebuild: the models whose training started (pending ones are left out), by id. */
export const snapshotModels = defineRpc({
  subject: 'training.snapshot.models',
  request: snapshotRequestSchema(rowIdSchema),
  response: snapshotPageSchema(
    z.object({
      modelId: rowIdSchema,
      userId: rowIdSchema,
      modelName: z.string(),
      status: z.enum(['training', 'completed', 'failed']),
      failureReason: z.string().nullable(),
      startedAt: z.iso.datetime().nullable(),
      finishedAt: z.iso.datetime().nullable(),
    }),
    rowIdSchema,
  ),
});
