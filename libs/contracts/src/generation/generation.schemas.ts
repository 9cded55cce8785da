import { z } from 'zod';
import { MAX_STORED_INTEGER } from '../ids.js';

/** SPEC.md §9: one run of 1-4 images costs 5 credits (GENERATION_COST in billing's contracts). */
export const NUM_OUTPUTS = { min: 1, max: 4, default: 4 } as const;
export const PROMPT_MAX_LENGTH = 2000;
export const NEGATIVE_PROMPT_MAX_LENGTH = 500;

/** SPEC.md §4: a job's life. It only ever moves forward, from pending. */
export const generationJobStatusSchema = z.enum(['pending', 'completed', 'failed']);
export type GenerationJobStatus = z.infer<typeof generationJobStatusSchema>;

/**
 * Where a pending job is, for the waiting screen: queued (no worker has it yet), generating (the
 * provider is making the images), saving (the images are being kept; `avatarIds` grows as each
 * one is). Null once the job has ended.
 */
export const generationJobStageSchema = z.enum(['queued', 'generating', 'saving']);
export type GenerationJobStage = z.infer<typeof generationJobStageSchema>;

/** SPEC.md §5, the generation schema, with the messages the create page's call step uses. */
export const generateAvatarRequestSchema = z.object({
  promptText: z
    .string({ error: 'Please enter a prompt' })
    .trim()
    .min(1, { error: 'Please enter a prompt' })
    .max(PROMPT_MAX_LENGTH, { error: `The prompt can be at most ${PROMPT_MAX_LENGTH} characters` }),
  customModelId: z
    .number({ error: 'Please select a custom model' })
    .int({ error: 'Please select a custom model' })
    .positive({ error: 'Please select a custom model' })
    .max(MAX_STORED_INTEGER, { error: 'Please select a custom model' }),
  numOutputs: z
    .number({ error: 'The number of images must be 1, 2, 3 or 4' })
    .int({ error: 'The number of images must be 1, 2, 3 or 4' })
    .min(NUM_OUTPUTS.min, { error: 'The number of images must be 1, 2, 3 or 4' })
    .max(NUM_OUTPUTS.max, { error: 'The number of images must be 1, 2, 3 or 4' })
    .default(NUM_OUTPUTS.default),
  /** What the images should avoid, sent apart from the prompt (the customizer's fixed list). Empty means none. */
  negativePrompt: z
    .string({ error: 'The negative prompt must be text' })
    .trim()
    .max(NEGATIVE_PROMPT_MAX_LENGTH, {
      error: `The negative prompt can be at most ${NEGATIVE_PROMPT_MAX_LENGTH} characters`,
    })
    .optional(),
});
export type GenerateAvatarRequest = z.input<typeof generateAvatarRequestSchema>;

export const generateAvatarResponseSchema = z.object({ jobId: z.uuid() });
export type GenerateAvatarResponse = z.infer<typeof generateAvatarResponseSchema>;

/** GET /api/generation-jobs item and GET /api/generation-jobs/{jobId}. */
export const generationJobSchema = z.object({
  id: z.uuid(),
  customModelId: z.number().int().positive(),
  promptText: z.string(),
  numOutputs: z.number().int().min(NUM_OUTPUTS.min).max(NUM_OUTPUTS.max),
  status: generationJobStatusSchema,
  /** Where a pending job is; null once it has ended. */
  stage: generationJobStageSchema.nullable(),
  /** The avatars the job made (in the gallery): growing while it saves them, all of them once completed. */
  avatarIds: z.array(z.number().int().positive()),
  /** Why it failed, in words for the person; null unless failed. */
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type GenerationJob = z.infer<typeof generationJobSchema>;

export const jobIdParamSchema = z.uuid({ error: 'The job id is not one we issued.' });
