import { z } from 'zod';
import { defineRoute } from '../http.js';
import { idParamSchema } from '../media/media.schemas.js';
import { customModelSchema, inferenceConfigSchema, trainModelRequestSchema } from './training.schemas.js';

export const trainModelRoute = defineRoute({
  method: 'POST',
  path: '/api/train-model',
  created: true,
  summary: 'Train a personal model from 12-20 of your selfies (holds 30 credits; a failed training costs nothing)',
  tag: 'training',
  auth: true,
  params: undefined,
  body: trainModelRequestSchema,
  response: customModelSchema,
  errors: [
    'TRAINING.ALREADY_TRAINING',
    'BILLING.INSUFFICIENT_CREDITS',
    'COMMON.NOT_FOUND',
    'TRAINING.PROVIDER_UNAVAILABLE',
  ],
});

export const customModelsRoute = defineRoute({
  method: 'GET',
  path: '/api/custom-models',
  summary: "The caller's models, newest first",
  tag: 'training',
  auth: true,
  params: undefined,
  body: undefined,
  response: z.array(customModelSchema),
  errors: [],
});

export const deleteCustomModelRoute = defineRoute({
  method: 'DELETE',
  path: '/api/custom-models/{id}',
  summary: "Delete one of the caller's models (refused while it trains)",
  tag: 'training',
  auth: true,
  params: z.object({ id: idParamSchema }),
  body: undefined,
  response: z.object({ deleted: z.literal(true) }),
  errors: ['COMMON.NOT_FOUND', 'TRAINING.MODEL_TRAINING'],
});

export const inferenceConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/inference/config',
  summary: 'Which inference provider runs: Replicate, or the local preview generator',
  tag: 'training',
  auth: false,
  params: undefined,
  body: undefined,
  response: inferenceConfigSchema,
  errors: [],
});

export const replicateWebhookRoute = defineRoute({
  method: 'POST',
  path: '/api/webhooks/replicate',
  summary: "Replicate's training and prediction updates, verified by their standard-webhooks signature",
  tag: 'training',
  auth: false,
  params: undefined,
  body: undefined,
  query: z.object({
    model: z.string().optional(),
    /** A prediction's webhook names its generation job: generation takes it, not training. */
    job: z.string().optional(),
  }),
  response: z.object({ received: z.literal(true) }),
  errors: ['TRAINING.WEBHOOK_INVALID', 'GENERATION.WEBHOOK_INVALID'],
});
