import { z } from 'zod';

export { GENERATION_COST, TRAINING_COST } from '../costs.js';

/**
 * Priority generation (the Professional Pack's promise): an account's generations go to the
 * workers' priority lane while it has a Professional Pack purchase that succeeded within the
 * last `windowDays` days and was not refunded or disputed since.
 */
export const GENERATION_PRIORITY = { packageId: 'professional', windowDays: 90 } as const;

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

/**
 * What a line of the credit history records (newest first on the Billing tab):
 * - `welcome`: the welcome credits of a new account;
 * - `purchase`: a package bought;
 * - `hold`: credits set aside when a training or a generation starts (no longer available);
 * - `capture`: the hold charged when the work succeeded (the credits were already set aside: 0);
 * - `release`: the hold given back when the work failed or was cancelled (it cost nothing);
 * - `refund`, `dispute`: credits a refunded or disputed payment took back;
 * - `adjustment`: any other movement of the ledger.
 */
export const creditHistoryKindSchema = z.enum([
  'welcome',
  'purchase',
  'hold',
  'capture',
  'release',
  'refund',
  'dispute',
  'adjustment',
]);
export type CreditHistoryKind = z.infer<typeof creditHistoryKindSchema>;

export const CREDIT_HISTORY_PAGE_SIZE = 20;
export const CREDIT_HISTORY_MAX_PAGE_SIZE = 100;

const pageNumber = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int({ error: `${name} must be a whole number from 1 to ${max}` })
    .min(1, { error: `${name} must be a whole number from 1 to ${max}` })
    .max(max, { error: `${name} must be a whole number from 1 to ${max}` });

/** GET /api/credit-history?page=&pageSize= (both optional; pages count from 1). */
export const creditHistoryQuerySchema = z.object({
  page: pageNumber('page', 100_000).default(1),
  pageSize: pageNumber('pageSize', CREDIT_HISTORY_MAX_PAGE_SIZE).default(CREDIT_HISTORY_PAGE_SIZE),
});
export type CreditHistoryQuery = z.infer<typeof creditHistoryQuerySchema>;

export const creditHistoryEntrySchema = z.object({
  /** Stable across pages: `ledger:<n>`, `hold:<uuid>`, `capture:<uuid>`, `release:<uuid>`. */
  id: z.string(),
  kind: creditHistoryKindSchema,
  /**
   * How the line changed the credits the user can spend (the `credits` of GET /api/user):
   * +5 welcome, +125 purchase, -30 hold, 0 capture, +30 release, -125 refund.
   */
  credits: z.number().int(),
  /** In the user's words, e.g. "Creator Pack purchased", "Credits held for model training". */
  description: z.string(),
  createdAt: z.iso.datetime(),
  /** What the line pays for or comes from: `training:<modelId>`, `generation:<jobId>`; null otherwise. */
  reference: z.string().nullable(),
  /** A hold's current state (`hold` lines only, else null): still `held`, or `captured`/`released` since. */
  holdStatus: holdStatusSchema.nullable(),
  /** A purchase's price in cents (`purchase` lines only, else null). */
  amountCents: z.number().int().nonnegative().nullable(),
});
export type CreditHistoryEntry = z.infer<typeof creditHistoryEntrySchema>;

export const creditHistoryResponseSchema = z.object({
  entries: z.array(creditHistoryEntrySchema),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  /** Lines in the whole history (pages: ceil(total / pageSize)). */
  total: z.number().int().nonnegative(),
});
export type CreditHistoryResponse = z.infer<typeof creditHistoryResponseSchema>;
