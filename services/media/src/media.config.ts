import { SELFIE_LIMITS } from '@likeness/contracts';
import { serviceConfigSchema, checkNatsCredentials } from '@likeness/nest-kit';
import { checkStorageConfig, storageConfigShape } from '@likeness/storage';
import { z } from 'zod';

/** How long an untouched budget is kept (then it counts as full again): its refill must fit. */
export const PIXEL_BUDGET_REFILL_MAX_MINUTES = 60;

export const mediaConfigSchema = serviceConfigSchema
  .extend({
    /**
     * Shared with the gateway: authenticates its calls to /internal/* and keys the HMAC of
     * signed image URLs (the gateway forwards them, media checks them).
     */
    MEDIA_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    ...storageConfigShape,
    /** How long a listed image URL works (its expiry is rounded up so URLs stay cacheable). */
    SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(3600),
    /**
     * The public origin (https://likeness.example), used only to give outside providers an
     * absolute download URL when storage has no presigned URLs of its own (local files).
     */
    PUBLIC_URL: z
      .url({ error: 'must be an absolute URL' })
      .optional()
      .transform((value) => (value ? new URL(value).origin : undefined)),
    /**
     * Decoded megapixels one person's uploads and conversions may cost media a minute, shared by
     * every replica (a token bucket in NATS KV); 0 turns the budget off. 600 MP is about 8 s of
     * one core's decoding a minute, and two full uploads (20 phone photos of 12 MP are 240 MP).
     */
    MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: z.coerce.number().int().min(0).default(600),
    /**
     * Megapixels that may be spent at once: one upload at its cap (320 MP), at least one file at
     * the per-file cap, or no file could ever pass.
     */
    MEDIA_PIXEL_BURST_MP: z.coerce
      .number()
      .int()
      .min(SELFIE_LIMITS.maxPixels / 1_000_000, {
        error: `must be at least ${SELFIE_LIMITS.maxPixels / 1_000_000} (one file at the per-file cap)`,
      })
      .default(SELFIE_LIMITS.maxPixelsPerUpload / 1_000_000),
  })
  .superRefine(checkNatsCredentials)
  .superRefine(checkStorageConfig)
  .refine(
    (config) =>
      config.MEDIA_PIXEL_BUDGET_MP_PER_MINUTE === 0 ||
      config.MEDIA_PIXEL_BURST_MP / config.MEDIA_PIXEL_BUDGET_MP_PER_MINUTE <= PIXEL_BUDGET_REFILL_MAX_MINUTES,
    {
      // A budget left alone is forgotten after an hour (a full one), so it must fill up within it.
      error: `must refill MEDIA_PIXEL_BURST_MP within ${PIXEL_BUDGET_REFILL_MAX_MINUTES} minutes`,
      path: ['MEDIA_PIXEL_BUDGET_MP_PER_MINUTE'],
    },
  );

export type MediaConfig = z.output<typeof mediaConfigSchema>;
