import { z } from 'zod';
import { defineRoute } from '../http.js';
import {
  generateAvatarRequestSchema,
  generateAvatarResponseSchema,
  generationJobSchema,
  jobIdParamSchema,
} from './generation.schemas.js';

export const generateAvatarRoute = defineRoute({
  method: 'POST',
  path: '/api/generate-avatar',
  created: true,
  summary:
    'Queue a run of 1-4 images with one of your completed models (holds 5 credits; charged when it completes, a failed run costs nothing)',
  tag: 'generation',
  auth: true,
  params: undefined,
  body: generateAvatarRequestSchema,
  response: generateAvatarResponseSchema,
  errors: ['BILLING.INSUFFICIENT_CREDITS', 'COMMON.NOT_FOUND', 'TRAINING.MODEL_NOT_READY'],
});

export const generationJobsRoute = defineRoute({
  method: 'GET',
  path: '/api/generation-jobs',
  summary: "The caller's generation jobs, newest first",
  tag: 'generation',
  auth: true,
  params: undefined,
  body: undefined,
  response: z.array(generationJobSchema),
  errors: [],
});

export const generationJobRoute = defineRoute({
  method: 'GET',
  path: '/api/generation-jobs/{jobId}',
  summary: "One of the caller's generation jobs: its status and, once completed, its avatars",
  tag: 'generation',
  auth: true,
  params: z.object({ jobId: jobIdParamSchema }),
  body: undefined,
  response: generationJobSchema,
  errors: ['COMMON.NOT_FOUND'],
});
