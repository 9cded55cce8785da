import { z } from 'zod';
import { MAX_STORED_INTEGER, rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import { snapshotPageSchema, snapshotRequestSchema } from '../snapshots.js';
import {
  balanceSchema,
  createPaymentIntentRequestSchema,
  createPaymentIntentResponseSchema,
  confirmPaymentRequestSchema,
  confirmPaymentResponseSchema,
  creditHistoryQuerySchema,
  creditHistoryResponseSchema,
  creditPackageSchema,
  holdReferenceSchema,
  holdStatusSchema,
  localPaymentConfirmRequestSchema,
  localPaymentConfirmResponseSchema,
  paymentConfigSchema,
} from './billing.schemas.js';

const userId = rowIdSchema;

export const getBalance = defineRpc({
  subject: 'billing.accounts.get',
  request: z.object({ userId }),
  response: balanceSchema,
});

/** Opens the account with the welcome credits (idempotent: `welcome:<userId>`). */
export const openAccount = defineRpc({
  subject: 'billing.accounts.open',
  request: z.object({ userId }),
  response: balanceSchema,
});

/** Holds credits against a reference before any work starts; refused when the available balance is short. */
export const reserveCredits = defineRpc({
  subject: 'billing.credits.reserve',
  request: z.object({
    userId,
    amount: z.number().int().positive().max(MAX_STORED_INTEGER),
    reference: holdReferenceSchema,
    /** Unresolved holds are released after this long. */
    expiresInSeconds: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3600)
      .optional(),
  }),
  response: z.object({
    reference: z.string(),
    amount: z.number().int(),
    status: holdStatusSchema,
    available: z.number().int(),
  }),
});

const holdResolution = z.object({ reference: z.string(), status: holdStatusSchema });

/** Turns a hold into a charge; idempotent. A released hold cannot be captured. */
export const captureCredits = defineRpc({
  subject: 'billing.credits.capture',
  request: z.object({ reference: holdReferenceSchema }),
  response: holdResolution,
});

/** Gives held credits back; idempotent. A captured hold stays captured. */
export const releaseCredits = defineRpc({
  subject: 'billing.credits.release',
  request: z.object({ reference: holdReferenceSchema }),
  response: holdResolution,
});

/** Whether the account's generations go to the priority lane now (see GENERATION_PRIORITY). */
export const getGenerationPriority = defineRpc({
  subject: 'billing.priority.get',
  request: z.object({ userId }),
  response: z.object({ priority: z.boolean() }),
});

export const listPackages = defineRpc({
  subject: 'billing.packages.list',
  request: z.object({}),
  response: z.array(creditPackageSchema),
});

export const getPaymentConfig = defineRpc({
  subject: 'billing.payments.config',
  request: z.object({}),
  response: paymentConfigSchema,
});

export const createPaymentIntent = defineRpc({
  subject: 'billing.payments.create-intent',
  request: createPaymentIntentRequestSchema.extend({ userId }),
  response: createPaymentIntentResponseSchema,
});

export const confirmPayment = defineRpc({
  subject: 'billing.payments.confirm',
  request: confirmPaymentRequestSchema.extend({ userId }),
  response: confirmPaymentResponseSchema,
});

export const confirmLocalPayment = defineRpc({
  subject: 'billing.local-payments.confirm',
  request: localPaymentConfirmRequestSchema.extend({ userId }),
  response: localPaymentConfirmResponseSchema,
});

/** A Stripe webhook, raw body and signature as received (the signature covers the exact bytes). */
export const handleStripeWebhook = defineRpc({
  subject: 'billing.webhooks.stripe',
  request: z.object({ payload: z.string().max(512 * 1024), signature: z.string().max(2048) }),
  response: z.object({ received: z.literal(true) }),
});

/** One page of the user's credit history, newest first (only that user's lines). */
export const getCreditHistory = defineRpc({
  subject: 'billing.credit-history.list',
  request: creditHistoryQuerySchema.extend({ userId }),
  response: creditHistoryResponseSchema,
});

/** Reporting's rebuild: the open accounts' balances (closed ones are left out), by user id. */
export const snapshotAccounts = defineRpc({
  subject: 'billing.snapshot.accounts',
  request: snapshotRequestSchema(rowIdSchema),
  response: snapshotPageSchema(
    z.object({
      userId: rowIdSchema,
      balance: z.number().int(),
      available: z.number().int(),
      /** When the balance last changed: its newest CreditsChanged's occurredAt (reporting keeps the newest). */
      balanceChangedAt: z.iso.datetime(),
    }),
    rowIdSchema,
  ),
});

/** Reporting's rebuild: the granted payments (succeeded, refunded or disputed), by payment id. */
export const snapshotPayments = defineRpc({
  subject: 'billing.snapshot.payments',
  request: snapshotRequestSchema(z.uuid()),
  response: snapshotPageSchema(
    z.object({
      paymentId: z.uuid(),
      userId: rowIdSchema,
      packageId: z.string(),
      amountCents: z.number().int().positive(),
      credits: z.number().int().positive(),
      status: z.enum(['succeeded', 'refunded', 'disputed']),
      /** Cents refunded or disputed so far. */
      refundedCents: z.number().int().nonnegative(),
      /** When the credits were granted: the PaymentSucceeded's time. */
      succeededAt: z.iso.datetime(),
    }),
    z.uuid(),
  ),
});
