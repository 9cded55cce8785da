import { serviceConfigSchema } from '@likeness/nest-kit';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

export const billingConfigSchema = serviceConfigSchema
  .extend({
    /** With a secret key, payments go through Stripe; without, through the local test processor. */
    STRIPE_SECRET_KEY: optional,
    /** Verifies webhook signatures; required with STRIPE_SECRET_KEY. */
    STRIPE_WEBHOOK_SECRET: optional,
    /** Given to the SPA for Stripe's PaymentElement; required with STRIPE_SECRET_KEY. */
    STRIPE_PUBLISHABLE_KEY: optional,
    /** Where the Stripe API lives (tests point it at a local stand-in). */
    STRIPE_API_URL: z.url({ error: 'must be a URL' }).default('https://api.stripe.com'),
    /** Holds not captured or released within this time are released by the sweeper. */
    HOLD_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(6 * 3600),
    HOLD_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /** Reserve and capture batches one replica runs at once (group commit); see docs/benchmarks.md. */
    LEDGER_BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  })
  .refine((config) => !config.STRIPE_SECRET_KEY || (config.STRIPE_WEBHOOK_SECRET && config.STRIPE_PUBLISHABLE_KEY), {
    error: 'set STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY with STRIPE_SECRET_KEY',
    path: ['STRIPE_SECRET_KEY'],
  });

export type BillingConfig = z.output<typeof billingConfigSchema>;
