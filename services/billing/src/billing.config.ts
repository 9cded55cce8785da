import { envChoice, serviceConfigSchema, checkNatsCredentials } from '@likeness/nest-kit';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => value || undefined);

const STRIPE_SETTINGS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'] as const;

export const billingConfigSchema = serviceConfigSchema
  .extend({
    /**
     * Who takes payments: `stripe`, or `local` (the test processor: test cards buy credits).
     * Unset: Stripe when STRIPE_SECRET_KEY is set, else local; in production the local
     * processor runs only when named, so free credits are never an accident.
     */
    PAYMENTS_PROVIDER: envChoice(['stripe', 'local']),
    /** The Stripe account; required with PAYMENTS_PROVIDER=stripe. */
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
  .superRefine(checkNatsCredentials)
  .superRefine((config, context) => {
    if (config.PAYMENTS_PROVIDER === 'stripe') {
      for (const name of STRIPE_SETTINGS) {
        if (!config[name])
          context.addIssue({ code: 'custom', path: [name], message: `set ${name} with PAYMENTS_PROVIDER=stripe` });
      }
    } else if (!config.PAYMENTS_PROVIDER && config.STRIPE_SECRET_KEY) {
      if (!config.STRIPE_WEBHOOK_SECRET || !config.STRIPE_PUBLISHABLE_KEY) {
        context.addIssue({
          code: 'custom',
          path: ['STRIPE_SECRET_KEY'],
          message: 'set STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY with STRIPE_SECRET_KEY',
        });
      }
    } else if (!config.PAYMENTS_PROVIDER && config.NODE_ENV === 'production') {
      context.addIssue({
        code: 'custom',
        path: ['PAYMENTS_PROVIDER'],
        message:
          'In production, payments need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY; ' +
          'set PAYMENTS_PROVIDER=local to run the local test processor knowingly.',
      });
    }
  })
  .transform((config) => ({
    ...config,
    PAYMENTS_PROVIDER:
      config.PAYMENTS_PROVIDER ?? (config.STRIPE_SECRET_KEY ? ('stripe' as const) : ('local' as const)),
  }));

export type BillingConfig = z.output<typeof billingConfigSchema>;
