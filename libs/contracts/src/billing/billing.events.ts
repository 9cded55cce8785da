import { z } from 'zod';
import { defineEvent } from '../events.js';

export const CreditsChanged = defineEvent({
  service: 'billing',
  name: 'CreditsChanged',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    /** The change of the balance: 0 when only what is available changed (a hold released). */
    delta: z.number().int(),
    balance: z.number().int().nonnegative(),
    available: z.number().int().nonnegative(),
    reason: z.string(),
  }),
});

export const PaymentSucceeded = defineEvent({
  service: 'billing',
  name: 'PaymentSucceeded',
  version: 1,
  payload: z.object({
    paymentId: z.string(),
    userId: z.number().int().positive(),
    provider: z.enum(['stripe', 'local']),
    providerPaymentId: z.string(),
    packageId: z.string(),
    amountCents: z.number().int().positive(),
    credits: z.number().int().positive(),
  }),
});

/**
 * A refund or a dispute of a granted payment changed what it is worth: `amountCents` is the total
 * refunded or disputed so far on that payment, `status` the payment's status after it
 * (`succeeded` while only part of it was refunded), `creditsTakenBack` the credits reversed so
 * far. It carries the payment's own facts too, so a reader that hears of it before the
 * PaymentSucceeded (they travel on different subjects) still knows the payment.
 */
export const PaymentRefunded = defineEvent({
  service: 'billing',
  name: 'PaymentRefunded',
  version: 1,
  payload: z.object({
    paymentId: z.string(),
    userId: z.number().int().positive(),
    kind: z.enum(['refund', 'dispute']),
    amountCents: z.number().int().nonnegative(),
    status: z.enum(['succeeded', 'refunded', 'disputed']),
    creditsTakenBack: z.number().int().nonnegative(),
    packageId: z.string(),
    paymentAmountCents: z.number().int().positive(),
    credits: z.number().int().positive(),
  }),
});
