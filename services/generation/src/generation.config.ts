import { envChoice, serviceConfigSchema, checkNatsCredentials } from '@likeness/nest-kit';
import { checkStorageConfig, storageConfigShape } from '@likeness/storage';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const generationConfigSchema = serviceConfigSchema
  .extend({
    ...storageConfigShape,
    /**
     * Which side of the service this process runs: `api` answers requests (and fails jobs left
     * behind), `worker` takes jobs from the queue, `all` both (one machine). They scale apart.
     */
    GENERATION_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    /** Jobs one worker process runs at once. */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** How long the queue waits for a worker's word before giving its job to another (it heartbeats meanwhile). */
    JOB_ACK_WAIT_MS: z.coerce.number().int().min(1_000).default(30_000),
    /** Attempts at a job before it fails (and its credits are given back). */
    JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /** One attempt's deadline: a prediction still running then is cancelled. */
    JOB_TIMEOUT_MS: positiveInt(10 * 60_000),
    /** Predictions per minute for the whole account, shared by every worker (Replicate allows 600); 0 = no limit. */
    PROVIDER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
    /** How long a local (preview) generation takes. */
    LOCAL_GENERATION_MS: z.coerce.number().int().min(0).default(4_000),
    /**
     * Who makes the images: `replicate`, or `local` (labelled previews made from the selfies).
     * Unset: Replicate when REPLICATE_API_TOKEN is set, else local; in production the local
     * generator runs only when named.
     */
    INFERENCE_PROVIDER: envChoice(['replicate', 'local']),
    /** The Replicate account's token; required with INFERENCE_PROVIDER=replicate. */
    REPLICATE_API_TOKEN: optional,
    /** Where the Replicate API lives (tests point it at a local stand-in). */
    REPLICATE_API_URL: z.url({ error: 'must be a URL' }).optional(),
    /**
     * Verifies prediction webhooks (`whsec_...`, the same secret as training's); the local
     * generator signs its own with it. With PUBLIC_URL it turns prediction webhooks on.
     */
    REPLICATE_WEBHOOK_SECRET: optional,
    /** How old a webhook's timestamp may be before it is refused as a replay. */
    REPLICATE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().positive().default(300),
    /** The public origin providers post prediction webhooks to (`<PUBLIC_URL>/api/webhooks/replicate?job=<id>`). */
    PUBLIC_URL: z
      .url({ error: 'must be an absolute URL' })
      .optional()
      .transform((value) => (value ? new URL(value).origin : undefined)),
    /** With webhooks, how often a worker still asks the provider about a running prediction (the safety net). */
    PREDICTION_SAFETY_POLL_MS: positiveInt(30_000),
    /** The billing hold's expiry: it must outlive every attempt of the job. */
    GENERATION_HOLD_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3600)
      .default(6 * 3600),
    /** How often the API side looks for jobs nobody will finish (their queue message is gone). */
    SWEEP_INTERVAL_MS: positiveInt(60_000),
  })
  .superRefine(checkNatsCredentials)
  .superRefine(checkStorageConfig)
  .superRefine((config, context) => {
    if (config.INFERENCE_PROVIDER === 'replicate' && !config.REPLICATE_API_TOKEN) {
      context.addIssue({
        code: 'custom',
        path: ['REPLICATE_API_TOKEN'],
        message: 'set REPLICATE_API_TOKEN with INFERENCE_PROVIDER=replicate',
      });
    }
    // Every role checks it: they share one environment, and the API side records the provider on each job.
    if (!config.INFERENCE_PROVIDER && !config.REPLICATE_API_TOKEN && config.NODE_ENV === 'production') {
      context.addIssue({
        code: 'custom',
        path: ['INFERENCE_PROVIDER'],
        message:
          'In production, generation needs REPLICATE_API_TOKEN; ' +
          'set INFERENCE_PROVIDER=local to run the local preview generator knowingly.',
      });
    }
  })
  .refine(
    (config) =>
      config.GENERATION_HOLD_SECONDS * 1000 >
      (config.JOB_TIMEOUT_MS + config.JOB_ACK_WAIT_MS) * (config.JOB_MAX_ATTEMPTS + 1),
    {
      error: 'must outlast every attempt of a job: (JOB_TIMEOUT_MS + JOB_ACK_WAIT_MS) × (JOB_MAX_ATTEMPTS + 1)',
      path: ['GENERATION_HOLD_SECONDS'],
    },
  )
  .transform((config) => ({
    ...config,
    INFERENCE_PROVIDER:
      config.INFERENCE_PROVIDER ?? (config.REPLICATE_API_TOKEN ? ('replicate' as const) : ('local' as const)),
  }));

export type GenerationConfig = z.output<typeof generationConfigSchema>;

/** Who makes the images: Replicate or the local preview generator (INFERENCE_PROVIDER). */
export const predictionProviderKind = (config: GenerationConfig) => config.INFERENCE_PROVIDER;

/** Where predictions post their webhooks, when webhooks are on (a secret to verify them and a public origin). */
export const predictionWebhookUrl = (config: GenerationConfig): string | undefined =>
  config.REPLICATE_WEBHOOK_SECRET && config.PUBLIC_URL ? `${config.PUBLIC_URL}/api/webhooks/replicate` : undefined;

export const runsApi = (config: GenerationConfig) => config.GENERATION_ROLE !== 'worker';
export const runsWorkers = (config: GenerationConfig) => config.GENERATION_ROLE !== 'api';

/** A job still pending this long after it was asked for can no longer be finished by a worker. */
export const staleAfterMs = (config: GenerationConfig) =>
  (config.JOB_TIMEOUT_MS + config.JOB_ACK_WAIT_MS) * (config.JOB_MAX_ATTEMPTS + 1);
