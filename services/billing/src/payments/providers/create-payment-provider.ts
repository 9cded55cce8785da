import type { DataSource } from 'typeorm';
import type { BillingConfig } from '../../billing.config.js';
import { LocalPaymentProvider } from './local-payment-provider.js';
import type { PaymentProvider } from './payment-provider.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

/** Stripe when the installation has a Stripe account, the local test processor otherwise. */
export function createPaymentProvider(config: BillingConfig, dataSource: DataSource): PaymentProvider {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY, STRIPE_API_URL } = config;
  if (!STRIPE_SECRET_KEY) return new LocalPaymentProvider(dataSource);
  // The config schema already demands both with a secret key; this keeps the types honest.
  if (!STRIPE_WEBHOOK_SECRET || !STRIPE_PUBLISHABLE_KEY) {
    throw new Error('STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY are required with STRIPE_SECRET_KEY');
  }
  return new StripePaymentProvider(STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY, STRIPE_API_URL);
}

/** The test card form exists only with the local processor. */
export function isLocalPaymentProvider(provider: PaymentProvider): provider is LocalPaymentProvider {
  return provider instanceof LocalPaymentProvider;
}
