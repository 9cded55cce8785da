import { z } from 'zod';
import { MAX_STORED_INTEGER } from '../ids.js';

/** SPEC.md §4: a model's life. It only ever moves forward. */
export const modelStatusSchema = z.enum(['pending', 'training', 'completed', 'failed']);
export type ModelStatus = z.infer<typeof modelStatusSchema>;

export const TRAINING_IMAGES = { min: 12, max: 20 } as const;

/** SPEC.md §5, the shared custom-model schema, with its messages. */
export const trainModelRequestSchema = z.object({
  modelName: z
    .string({ error: 'Please enter a model name' })
    .trim()
    .min(3, { error: 'Model name must be at least 3 characters' })
    .max(30, { error: 'Model name must be at most 30 characters' })
    .regex(/^[A-Za-z0-9 _-]+$/, {
      error: 'Model name can only contain letters, numbers, spaces, hyphens and underscores',
    }),
  triggerWord: z
    .string({ error: 'Please enter a trigger word' })
    .trim()
    .min(2, { error: 'Trigger word must be at least 2 characters' })
    .max(20, { error: 'Trigger word must be at most 20 characters' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'Trigger word can only contain letters, numbers, hyphens and underscores' }),
  referenceImageIds: z
    .array(z.number({ error: 'Reference images are selfie ids' }).int().positive().max(MAX_STORED_INTEGER), {
      error: 'At least 12 reference images required',
    })
    .min(TRAINING_IMAGES.min, { error: 'At least 12 reference images required' })
    .max(TRAINING_IMAGES.max, { error: 'Maximum 20 reference images allowed' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'Each reference image can be chosen once' }),
  trainingType: z.literal('flux-lora', { error: 'The training type must be flux-lora' }).default('flux-lora'),
});
export type TrainModelRequest = z.input<typeof trainModelRequestSchema>;

/** GET /api/custom-models item (SPEC.md §7), plus why a training failed. */
export const customModelSchema = z.object({
  id: z.number().int().positive(),
  modelName: z.string(),
  triggerWord: z.string(),
  status: modelStatusSchema,
  trainingType: z.literal('flux-lora'),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomModel = z.infer<typeof customModelSchema>;

/** GET /api/inference/config: which provider runs, so the SPA can say what local mode makes. */
export const inferenceConfigSchema = z.object({ provider: z.enum(['replicate', 'local']) });
export type InferenceConfig = z.infer<typeof inferenceConfigSchema>;
