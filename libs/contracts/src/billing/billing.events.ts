import { z } from 'zod';
import { defineEvent } from '../events.js';

export const CreditsChanged = defineEvent({
  service: 'billing',
  name: 'CreditsChanged',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
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
