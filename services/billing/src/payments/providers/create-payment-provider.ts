import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { BillingConfig } from '../../billing.config.js';
import { LocalPaymentProvider } from './local-payment-provider.js';
import type { PaymentProvider } from './payment-provider.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

/** The provider PAYMENTS_PROVIDER names (the config decided it, and refused a bad combination). */
export function createPaymentProvider(config: BillingConfig, dataSource: DataSource): PaymentProvider {
  const logger = new Logger('Payments');
  const { PAYMENTS_PROVIDER, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY, STRIPE_API_URL } =
    config;
  if (PAYMENTS_PROVIDER === 'local') {
    const message = 'Payments go through the local test processor (PAYMENTS_PROVIDER=local): test cards buy credits';
    // Said louder where it costs money: in production this was asked for by name.
    if (config.NODE_ENV === 'production') logger.warn(message);
    else logger.log(message);
    return new LocalPaymentProvider(dataSource);
  }
  // The config schema already demands all three for Stripe; this keeps the types honest.
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET || !STRIPE_PUBLISHABLE_KEY) {
    throw new Error('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY are required for Stripe');
  }
  logger.log(`Payments go through Stripe (${STRIPE_API_URL})`);
  return new StripePaymentProvider(STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY, STRIPE_API_URL);
}

/** Says at start which provider takes payments; the local one louder in production, where it was named. */
export function announcePaymentProvider(config: BillingConfig): void {
  const logger = new Logger('Payments');
  if (config.PAYMENTS_PROVIDER === 'stripe') {
    logger.log(`Payments go through Stripe (${config.STRIPE_API_URL})`);
    return;
  }
  const message = 'Payments go through the local test processor (PAYMENTS_PROVIDER=local): test cards buy credits';
  if (config.NODE_ENV === 'production') logger.warn(message);
  else logger.log(message);
}

/** The test card form exists only with the local processor. */
export function isLocalPaymentProvider(provider: PaymentProvider): provider is LocalPaymentProvider {
  return provider instanceof LocalPaymentProvider;
}
