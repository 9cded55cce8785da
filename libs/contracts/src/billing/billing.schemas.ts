import { z } from 'zod';

/** SPEC.md §9 / DESIGN.md §5: what things cost, in credits. */
export const GENERATION_COST = 5;
export const TRAINING_COST = 30;

export const creditPackageSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  credits: z.number().int().positive(),
  /** Dollars, e.g. 11 (prices are kept in cents; this is for display). */
  price: z.number().positive(),
  /** Short value text, e.g. "20% bonus credits". */
  value: z.string(),
  popular: z.boolean(),
});
export type CreditPackage = z.infer<typeof creditPackageSchema>;

export const paymentProviderSchema = z.enum(['stripe', 'local']);
export type PaymentProviderKind = z.infer<typeof paymentProviderSchema>;

export const paymentIntentIdSchema = z
  .string({ error: 'A payment intent id is required.' })
  .trim()
  .min(1, { error: 'A payment intent id is required.' })
  .max(255, { error: 'That is not a payment intent id.' })
  .regex(/^pi_[A-Za-z0-9_]+$/, { error: 'That is not a payment intent id.' });

/** POST /api/create-payment-intent */
export const createPaymentIntentRequestSchema = z.object({
  packageId: z
    .string({ error: 'Please select a credit package to continue.' })
    .trim()
    .min(1, { error: 'Please select a credit package to continue.' })
    .max(64, { error: 'That credit package does not exist.' }),
});
export type CreatePaymentIntentRequest = z.infer<typeof createPaymentIntentRequestSchema>;

export const createPaymentIntentResponseSchema = z.object({
  /** `<paymentIntentId>_secret_<random>`, as Stripe's. */
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  packageDetails: creditPackageSchema,
  provider: paymentProviderSchema,
});
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

/** POST /api/confirm-payment */
export const confirmPaymentRequestSchema = z.object({ paymentIntentId: paymentIntentIdSchema });
export type ConfirmPaymentRequest = z.infer<typeof confirmPaymentRequestSchema>;
/** `credits`: what the payment added to the balance. */
export const confirmPaymentResponseSchema = z.object({ credits: z.number().int().nonnegative() });
export type ConfirmPaymentResponse = z.infer<typeof confirmPaymentResponseSchema>;

/** POST /api/local-payments/confirm: the test-mode card form (only without a Stripe key). */
export const localPaymentConfirmRequestSchema = z.object({
  paymentIntentId: paymentIntentIdSchema,
  cardNumber: z
    .string({ error: 'Please enter a card number.' })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, { error: 'Please enter a card number of 12 to 19 digits.' })),
});
export type LocalPaymentConfirmRequest = z.input<typeof localPaymentConfirmRequestSchema>;
export const localPaymentConfirmResponseSchema = z.object({
  paymentIntentId: z.string(),
  status: z.literal('succeeded'),
});

/** The test cards of the local processor (SPEC of issue 3). */
export const LOCAL_TEST_CARDS = { success: '4242424242424242', declined: '4000000000000002' } as const;

/** GET /api/payments/config: which payment form the SPA renders. */
export const paymentConfigSchema = z.object({
  provider: paymentProviderSchema,
  /** Stripe's publishable key; null with the local test processor. */
  publishableKey: z.string().nullable(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

export const balanceSchema = z.object({
  userId: z.number().int().positive(),
  /** Credits on the account, including those held for running jobs. */
  balance: z.number().int().nonnegative(),
  held: z.number().int().nonnegative(),
  /** What the user can spend now: balance minus held. */
  available: z.number().int().nonnegative(),
});
export type Balance = z.infer<typeof balanceSchema>;

export const holdStatusSchema = z.enum(['held', 'captured', 'released']);
export type HoldStatus = z.infer<typeof holdStatusSchema>;

/** A reference names what a hold pays for: `generation:<jobId>`, `training:<modelId>`. */
export const holdReferenceSchema = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[a-z]+:[A-Za-z0-9_-]+$/, { error: 'A hold reference looks like "generation:<id>".' });
