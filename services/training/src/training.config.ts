import { envChoice, serviceConfigSchema, checkNatsCredentials } from '@likeness/nest-kit';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const HOUR_MS = 3_600_000;

/** The provider named, else Replicate when it has a token. */
const inferenceProviderOf = (config: {
  INFERENCE_PROVIDER?: 'replicate' | 'local' | undefined;
  REPLICATE_API_TOKEN?: string | undefined;
}) => config.INFERENCE_PROVIDER ?? (config.REPLICATE_API_TOKEN ? ('replicate' as const) : ('local' as const));

export const trainingConfigSchema = serviceConfigSchema
  .extend({
    /**
     * Who trains: `replicate`, or `local` (a stand-in that needs no account). Unset: Replicate
     * when REPLICATE_API_TOKEN is set, else local; in production the local provider runs only
     * when named.
     */
    INFERENCE_PROVIDER: envChoice(['replicate', 'local']),
    /** The Replicate account's token; required with INFERENCE_PROVIDER=replicate. */
    REPLICATE_API_TOKEN: optional,
    /** Where the Replicate API lives (tests point it at a local stand-in). */
    REPLICATE_API_URL: z.url({ error: 'must be a URL' }).optional(),
    /** The Replicate account that owns the destination models (one private model per user model). */
    REPLICATE_OWNER: optional,
    /** The flux LoRA trainer, as `owner/name:version` (e.g. ostris/flux-dev-lora-trainer:<version id>). */
    REPLICATE_TRAINER_VERSION: z
      .string()
      .regex(/^[a-z0-9_.-]+\/[a-z0-9_.-]+:[a-f0-9]{64}$/i, { error: 'must look like owner/name:<64-hex version id>' })
      .optional(),
    /** Hardware of the destination models. */
    REPLICATE_HARDWARE: z.string().min(1).default('gpu-t4'),
    /** Verifies Replicate's webhook signatures (`whsec_...`); required with REPLICATE_API_TOKEN. */
    REPLICATE_WEBHOOK_SECRET: optional,
    /** How old a webhook's timestamp may be before it is refused as a replay. */
    REPLICATE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().positive().default(300),
    /** The public origin Replicate posts webhooks to (`<PUBLIC_URL>/api/webhooks/replicate`). */
    PUBLIC_URL: z
      .url({ error: 'must be an absolute URL' })
      .optional()
      .transform((value) => (value ? new URL(value).origin : undefined)),
    /** How long a local training takes. */
    LOCAL_TRAINING_MS: milliseconds(15_000),
    /**
     * How often the reconciler asks the provider about unfinished trainings. Unset: every 30 s
     * with Replicate (webhooks do the work, this is the fallback), and often enough with the
     * local provider (which has no webhooks) that a training is seen to finish promptly.
     */
    RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().optional(),
    /** A training still unfinished after this long is cancelled at the provider and failed. */
    TRAINING_TIMEOUT_MS: milliseconds(2 * HOUR_MS),
    /** A training that never left 'pending' (a crash while starting it) is picked up after this long. */
    PENDING_TIMEOUT_MS: milliseconds(60_000),
    /** The billing hold's expiry: outlives the training timeout, so a hold never lapses under a training. */
    TRAINING_HOLD_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3600)
      .default(6 * 3600),
    /** How long the zip of training images stays fetchable by the provider. */
    TRAINING_ARCHIVE_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(24 * 3600)
      .default(6 * 3600),
  })
  .superRefine(checkNatsCredentials)
  .superRefine((config, context) => {
    if (!config.INFERENCE_PROVIDER && !config.REPLICATE_API_TOKEN && config.NODE_ENV === 'production') {
      context.addIssue({
        code: 'custom',
        path: ['INFERENCE_PROVIDER'],
        message:
          'In production, trainings need REPLICATE_API_TOKEN, REPLICATE_OWNER, REPLICATE_TRAINER_VERSION, ' +
          'REPLICATE_WEBHOOK_SECRET and PUBLIC_URL; set INFERENCE_PROVIDER=local to run the local provider knowingly.',
      });
    }
    if (inferenceProviderOf(config) !== 'replicate') return;
    const needed = [
      ['REPLICATE_API_TOKEN', 'set REPLICATE_API_TOKEN with INFERENCE_PROVIDER=replicate'],
      [
        'REPLICATE_WEBHOOK_SECRET',
        'set REPLICATE_WEBHOOK_SECRET with REPLICATE_API_TOKEN (webhooks are verified by it)',
      ],
      ['PUBLIC_URL', 'set PUBLIC_URL with REPLICATE_API_TOKEN (Replicate posts webhooks to it)'],
      ['REPLICATE_OWNER', 'set REPLICATE_OWNER with REPLICATE_API_TOKEN (the account that owns the trained models)'],
      ['REPLICATE_TRAINER_VERSION', 'set REPLICATE_TRAINER_VERSION with REPLICATE_API_TOKEN (the trainer to run)'],
    ] as const;
    for (const [name, message] of needed) {
      if (!config[name]) context.addIssue({ code: 'custom', path: [name], message });
    }
  })
  .refine((config) => config.TRAINING_HOLD_SECONDS * 1000 > config.TRAINING_TIMEOUT_MS + config.PENDING_TIMEOUT_MS, {
    error: 'must be longer than TRAINING_TIMEOUT_MS (a hold may not lapse while its training runs)',
    path: ['TRAINING_HOLD_SECONDS'],
  })
  .transform((config) => {
    const provider = inferenceProviderOf(config);
    return {
      ...config,
      INFERENCE_PROVIDER: provider,
      RECONCILE_INTERVAL_MS:
        config.RECONCILE_INTERVAL_MS ??
        (provider === 'replicate' ? 30_000 : Math.max(100, Math.min(2_000, Math.floor(config.LOCAL_TRAINING_MS / 5)))),
    };
  });

export type TrainingConfig = z.output<typeof trainingConfigSchema>;

export const providerKindOf = (config: TrainingConfig) => config.INFERENCE_PROVIDER;
