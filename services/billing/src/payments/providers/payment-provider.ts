import type { PaymentProviderKind } from '@likeness/contracts';

/** The provider's own record of a payment intent. */
export interface ProviderIntent {
  /** `pi_...` */
  id: string;
  /** `<id>_secret_<random>` */
  clientSecret: string;
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled' | 'failed';
  amountCents: number;
  currency: string;
  /** What we attached: paymentId, userId, packageId. */
  metadata: Record<string, string>;
  /** Why the last attempt failed, in the provider's words, when it did. */
  failureMessage?: string;
}

export interface CreateIntentInput {
  /** Our payment id: the provider idempotency key, so a retried create makes one intent. */
  paymentId: string;
  userId: number;
  packageId: string;
  amountCents: number;
  credits: number;
}

/** A verified provider webhook, reduced to what billing acts on. */
export type ProviderEvent =
  | { kind: 'payment_succeeded'; eventId: string; intentId: string }
  | { kind: 'payment_failed'; eventId: string; intentId: string; message: string }
  /** `amountCents`: the total refunded so far on that payment. */
  | { kind: 'refunded'; eventId: string; intentId: string; amountCents: number }
  /** A dispute opened: the disputed amount is taken back like a refund. */
  | { kind: 'disputed'; eventId: string; intentId: string; amountCents: number }
  | { kind: 'ignored'; eventId: string; type: string };

/** The payments port: Stripe in production, the local test processor on one machine. */
export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  /** For the SPA's payment form; null for the local processor. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** null when the provider has no such intent. */
  retrieveIntent(intentId: string): Promise<ProviderIntent | null>;
  /** Verifies the signature over the exact raw body; throws BILLING.WEBHOOK_INVALID when it fails. */
  parseWebhook(rawBody: string, signature: string): ProviderEvent;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
