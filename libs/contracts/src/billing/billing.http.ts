import { z } from 'zod';
import { defineRoute } from '../http.js';
import {
  confirmPaymentRequestSchema,
  confirmPaymentResponseSchema,
  createPaymentIntentRequestSchema,
  createPaymentIntentResponseSchema,
  creditHistoryQuerySchema,
  creditHistoryResponseSchema,
  creditPackageSchema,
  localPaymentConfirmRequestSchema,
  localPaymentConfirmResponseSchema,
  paymentConfigSchema,
} from './billing.schemas.js';

export const creditPackagesRoute = defineRoute({
  method: 'GET',
  path: '/api/credit-packages',
  summary: 'The credit packages on sale',
  tag: 'billing',
  auth: false,
  params: undefined,
  body: undefined,
  response: z.array(creditPackageSchema),
  errors: [],
});

export const paymentConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/payments/config',
  summary: 'Which payment form to show: Stripe (with its publishable key) or the local test processor',
  tag: 'billing',
  auth: false,
  params: undefined,
  body: undefined,
  response: paymentConfigSchema,
  errors: [],
});

export const createPaymentIntentRoute = defineRoute({
  method: 'POST',
  path: '/api/create-payment-intent',
  summary: 'Start buying a package: a pending payment and the provider client secret',
  tag: 'billing',
  auth: true,
  params: undefined,
  body: createPaymentIntentRequestSchema,
  response: createPaymentIntentResponseSchema,
  errors: ['BILLING.PACKAGE_NOT_FOUND', 'BILLING.PROVIDER_UNAVAILABLE', 'COMMON.RATE_LIMITED'],
});

export const confirmPaymentRoute = defineRoute({
  method: 'POST',
  path: '/api/confirm-payment',
  summary: "Check the provider's record of a payment and grant its credits once",
  tag: 'billing',
  auth: true,
  params: undefined,
  body: confirmPaymentRequestSchema,
  response: confirmPaymentResponseSchema,
  errors: [
    'BILLING.PAYMENT_NOT_FOUND',
    'BILLING.PAYMENT_DECLINED',
    'BILLING.PAYMENT_PENDING',
    'BILLING.PROVIDER_UNAVAILABLE',
  ],
});

export const localPaymentConfirmRoute = defineRoute({
  method: 'POST',
  path: '/api/local-payments/confirm',
  summary: 'Pay with a test card (local test processor only: exists while no Stripe key is set)',
  tag: 'billing',
  auth: true,
  params: undefined,
  body: localPaymentConfirmRequestSchema,
  response: localPaymentConfirmResponseSchema,
  errors: ['BILLING.PAYMENT_NOT_FOUND', 'BILLING.PAYMENT_DECLINED', 'COMMON.NOT_FOUND'],
});

export const stripeWebhookRoute = defineRoute({
  method: 'POST',
  path: '/api/webhooks/stripe',
  summary: "Stripe's events, verified by signature over the raw body",
  tag: 'billing',
  auth: false,
  params: undefined,
  body: undefined,
  response: z.object({ received: z.literal(true) }),
  errors: ['BILLING.WEBHOOK_INVALID'],
});

export const creditHistoryRoute = defineRoute({
  method: 'GET',
  path: '/api/credit-history',
  summary:
    "The signed-in user's credit history, newest first, paged: purchases, welcome credits, holds and their capture or release, refunds",
  tag: 'billing',
  auth: true,
  params: undefined,
  body: undefined,
  query: creditHistoryQuerySchema,
  response: creditHistoryResponseSchema,
  errors: ['AUTH.UNAUTHENTICATED'],
});
