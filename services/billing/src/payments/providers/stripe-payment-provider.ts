import { DomainError } from '@likeness/nest-kit';
import Stripe from 'stripe';
import type { CreateIntentInput, PaymentProvider, ProviderEvent, ProviderIntent } from './payment-provider.js';

/** Stripe's own limit on a webhook's age, so a captured webhook cannot be replayed later. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const UNAVAILABLE_MESSAGE = 'Our payment provider cannot be reached right now. Please try again in a moment.';

/** The payments port over Stripe's PaymentIntents API. */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    readonly publishableKey: string,
    apiUrl: string,
  ) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(secretKey, {
      host: url.hostname,
      port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
      protocol,
      // Retries reuse the idempotency key, so a create that timed out still makes one intent.
      maxNetworkRetries: 2,
      timeout: 10_000,
    });
  }

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          automatic_payment_methods: { enabled: true },
          description: `Likeness credits: ${input.packageId}`,
          metadata: {
            paymentId: input.paymentId,
            userId: String(input.userId),
            packageId: input.packageId,
            credits: String(input.credits),
          },
        },
        // Our payment id as the key: a create repeated after a lost answer returns the first intent.
        { idempotencyKey: `likeness-payment-${input.paymentId}` },
      );
      return toProviderIntent(intent);
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  async retrieveIntent(intentId: string): Promise<ProviderIntent | null> {
    try {
      return toProviderIntent(await this.stripe.paymentIntents.retrieve(intentId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      throw asUnavailable(error);
    }
  }

  parseWebhook(rawBody: string, signature: string): ProviderEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
    } catch {
      // Whatever failed (signature, age, body), the sender learns only that we refused it.
      throw new DomainError('BILLING.WEBHOOK_INVALID', 'The webhook signature is not valid.');
    }
    return toProviderEvent(event);
  }
}

function toProviderEvent(event: Stripe.Event): ProviderEvent {
  const eventId = event.id;
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { kind: 'payment_succeeded', eventId, intentId: event.data.object.id };
    case 'payment_intent.payment_failed':
      return {
        kind: 'payment_failed',
        eventId,
        intentId: event.data.object.id,
        message: event.data.object.last_payment_error?.message ?? 'The payment failed.',
      };
    case 'charge.refunded': {
      const intentId = idOf(event.data.object.payment_intent);
      // A charge made outside a PaymentIntent is none of ours.
      if (!intentId) break;
      return { kind: 'refunded', eventId, intentId, amountCents: event.data.object.amount_refunded };
    }
    case 'charge.dispute.created': {
      const intentId = idOf(event.data.object.payment_intent);
      if (!intentId) break;
      return { kind: 'disputed', eventId, intentId, amountCents: event.data.object.amount };
    }
  }
  return { kind: 'ignored', eventId, type: event.type };
}

/** Expandable fields arrive as an id or, when expanded, as the object. */
function idOf(field: string | { id: string } | null): string | null {
  return typeof field === 'string' ? field : (field?.id ?? null);
}

function toProviderIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  const failureMessage = intent.last_payment_error?.message;
  return {
    id: intent.id,
    // Stripe hands the secret to the key that created the intent; ours always did.
    clientSecret: intent.client_secret ?? '',
    status: toStatus(intent.status, Boolean(intent.last_payment_error)),
    amountCents: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    ...(failureMessage ? { failureMessage } : {}),
  };
}

function toStatus(status: Stripe.PaymentIntent.Status, lastAttemptFailed: boolean): ProviderIntent['status'] {
  switch (status) {
    case 'requires_payment_method':
      // Stripe returns a declined intent to this state; like the local processor's `failed`, it may still be paid.
      return lastAttemptFailed ? 'failed' : 'requires_payment_method';
    case 'requires_confirmation':
      // A method is attached but nothing was charged yet.
      return 'requires_payment_method';
    case 'requires_action':
      return 'requires_action';
    case 'processing':
      return 'processing';
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    default:
      // requires_capture (we never ask for manual capture) and states newer than this code: not paid, not failed.
      return 'processing';
  }
}

/** Stripe unreachable, failing or throttling us after the SDK's retries: a caller may try again. */
function asUnavailable(error: unknown): unknown {
  const transient =
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError;
  // Anything else (a bad key, a request Stripe refuses) is our fault and stays an internal error.
  return transient ? new DomainError('BILLING.PROVIDER_UNAVAILABLE', UNAVAILABLE_MESSAGE) : error;
}
