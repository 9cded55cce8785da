import { randomUUID } from 'node:crypto';
import { type StripeStandIn, startStripeStandIn } from '@likeness/testing';
import Stripe from 'stripe';
import type { CreateIntentInput } from '../src/payments/providers/payment-provider.js';
import { StripePaymentProvider } from '../src/payments/providers/stripe-payment-provider.js';

const UNAVAILABLE = {
  code: 'BILLING.PROVIDER_UNAVAILABLE',
  message: 'Our payment provider cannot be reached right now. Please try again in a moment.',
};
const WEBHOOK_INVALID = { code: 'BILLING.WEBHOOK_INVALID', message: 'The webhook signature is not valid.' };

function purchase(overrides: Partial<CreateIntentInput> = {}): CreateIntentInput {
  return { paymentId: randomUUID(), userId: 7, packageId: 'popular', amountCents: 1100, credits: 120, ...overrides };
}

function providerFor(standIn: StripeStandIn, secretKey = standIn.secretKey): StripePaymentProvider {
  return new StripePaymentProvider(secretKey, standIn.webhookSecret, standIn.publishableKey, standIn.url);
}

/** parseWebhook throws synchronously; this hands back what it threw. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe(StripePaymentProvider.name, () => {
  let standIn: StripeStandIn;
  let sut: StripePaymentProvider;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    sut = providerFor(standIn);
  });

  afterAll(async () => {
    await standIn?.stop();
  });

  const requestsWithKey = (paymentId: string) =>
    standIn.requests().filter((request) => request.idempotencyKey === `likeness-payment-${paymentId}`);
  const intentsOf = (paymentId: string) =>
    standIn.intents().filter((intent) => intent.metadata['paymentId'] === paymentId);

  describe('createIntent', () => {
    it('should create a USD intent that carries our payment and is keyed by our payment id', async () => {
      const input = purchase();

      const intent = await sut.createIntent(input);

      expect(intent).toEqual({
        id: expect.stringMatching(/^pi_/),
        clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_.+`)),
        status: 'requires_payment_method',
        amountCents: 1100,
        currency: 'usd',
        metadata: { paymentId: input.paymentId, userId: '7', packageId: 'popular', credits: '120' },
      });
      expect(standIn.intent(intent.id)).toMatchObject({
        amount: 1100,
        currency: 'usd',
        description: 'Likeness credits: popular',
        automatic_payment_methods: { enabled: true },
      });
      expect(requestsWithKey(input.paymentId)).toEqual([
        {
          method: 'POST',
          path: '/v1/payment_intents',
          idempotencyKey: `likeness-payment-${input.paymentId}`,
          status: 200,
        },
      ]);
    });

    it('should return the first intent when a create for the same payment is repeated', async () => {
      const input = purchase();

      const first = await sut.createIntent(input);
      const again = await sut.createIntent(input);
      const other = await sut.createIntent(purchase());

      expect(again.id).toBe(first.id);
      expect(intentsOf(input.paymentId)).toHaveLength(1);
      expect(other.id).not.toBe(first.id);
    });

    it.each([
      ['before Stripe acted', false],
      ['after Stripe made the intent', true],
    ])('should make exactly one intent when the first attempt gets a 502 %s', async (_when, afterProcessing) => {
      const input = purchase();
      standIn.failNext(1, 502, { afterProcessing });

      const intent = await sut.createIntent(input);

      expect(requestsWithKey(input.paymentId).map((request) => request.status)).toEqual([502, 200]);
      expect(intentsOf(input.paymentId).map((created) => created.id)).toEqual([intent.id]);
    });

    it('should report the provider unavailable when every attempt fails', async () => {
      const input = purchase();
      standIn.failNext(3, 503);

      await expect(sut.createIntent(input)).rejects.toMatchObject(UNAVAILABLE);
      // One attempt and the two retries.
      expect(requestsWithKey(input.paymentId)).toHaveLength(3);
    });

    it('should not present a rejected API key as an outage when the key is wrong', async () => {
      const withWrongKey = providerFor(standIn, 'sk_test_wrong');

      await expect(withWrongKey.createIntent(purchase())).rejects.toBeInstanceOf(
        Stripe.errors.StripeAuthenticationError,
      );
    });
  });

  describe('retrieveIntent', () => {
    it('should report an intent the customer paid as succeeded', async () => {
      const { id } = await sut.createIntent(purchase());
      standIn.succeed(id);

      await expect(sut.retrieveIntent(id)).resolves.toEqual(expect.objectContaining({ id, status: 'succeeded' }));
      expect(await sut.retrieveIntent(id)).not.toHaveProperty('failureMessage');
    });

    it("should report a declined attempt as failed with Stripe's message", async () => {
      const { id } = await sut.createIntent(purchase());
      standIn.fail(id, 'Your card has insufficient funds.');

      await expect(sut.retrieveIntent(id)).resolves.toMatchObject({
        id,
        status: 'failed',
        failureMessage: 'Your card has insufficient funds.',
      });
    });

    it('should return null when Stripe has no such intent', async () => {
      await expect(sut.retrieveIntent('pi_does_not_exist')).resolves.toBeNull();
    });

    it('should report the provider unavailable when Stripe cannot be reached', async () => {
      const gone = await startStripeStandIn();
      const provider = providerFor(gone);
      await gone.stop();

      await expect(provider.retrieveIntent('pi_anything')).rejects.toMatchObject(UNAVAILABLE);
    });
  });

  describe('parseWebhook', () => {
    it('should map payment_intent.succeeded to a succeeded payment', async () => {
      const { id } = await sut.createIntent(purchase());
      const event = standIn.signedEvent('payment_intent.succeeded', standIn.succeed(id));

      expect(sut.parseWebhook(event.payload, event.signature)).toEqual({
        kind: 'payment_succeeded',
        eventId: event.id,
        intentId: id,
      });
    });

    it("should map payment_intent.payment_failed to a failed payment with Stripe's message", async () => {
      const { id } = await sut.createIntent(purchase());
      const event = standIn.signedEvent('payment_intent.payment_failed', standIn.fail(id, 'Your card has expired.'));

      expect(sut.parseWebhook(event.payload, event.signature)).toEqual({
        kind: 'payment_failed',
        eventId: event.id,
        intentId: id,
        message: 'Your card has expired.',
      });
    });

    it('should say the payment failed when a failure event carries no error', async () => {
      const { id } = await sut.createIntent(purchase());
      const event = standIn.signedEvent('payment_intent.payment_failed', standIn.intent(id));

      expect(sut.parseWebhook(event.payload, event.signature)).toMatchObject({ message: 'The payment failed.' });
    });

    it('should map charge.refunded to the total refunded on the intent', async () => {
      const { id } = await sut.createIntent(purchase());
      standIn.succeed(id);
      const event = standIn.signedEvent('charge.refunded', standIn.chargeFor(id, { amountRefunded: 500 }));

      expect(sut.parseWebhook(event.payload, event.signature)).toEqual({
        kind: 'refunded',
        eventId: event.id,
        intentId: id,
        amountCents: 500,
      });
    });

    it('should map charge.dispute.created to the disputed amount of the intent', async () => {
      const { id } = await sut.createIntent(purchase());
      standIn.succeed(id);
      const event = standIn.signedEvent('charge.dispute.created', standIn.disputeFor(id));

      expect(sut.parseWebhook(event.payload, event.signature)).toEqual({
        kind: 'disputed',
        eventId: event.id,
        intentId: id,
        amountCents: 1100,
      });
    });

    it('should ignore event types billing does not act on', () => {
      const event = standIn.signedEvent('customer.created', { id: 'cus_1', object: 'customer' });

      expect(sut.parseWebhook(event.payload, event.signature)).toEqual({
        kind: 'ignored',
        eventId: event.id,
        type: 'customer.created',
      });
    });

    it('should refuse a webhook signed with another secret', () => {
      const { payload } = standIn.signedEvent('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });

      expect(thrownBy(() => sut.parseWebhook(payload, signature))).toMatchObject(WEBHOOK_INVALID);
    });

    it('should refuse a webhook whose body was changed after signing', async () => {
      const { id } = await sut.createIntent(purchase());
      standIn.succeed(id);
      const event = standIn.signedEvent('charge.refunded', standIn.chargeFor(id, { amountRefunded: 5 }));
      const tampered = event.payload.replace('"amount_refunded":5', '"amount_refunded":1100');
      expect(tampered).not.toBe(event.payload);

      expect(thrownBy(() => sut.parseWebhook(tampered, event.signature))).toMatchObject(WEBHOOK_INVALID);
    });

    it('should refuse a webhook signed more than 300 seconds ago', () => {
      const event = standIn.signedEvent(
        'payment_intent.succeeded',
        { id: 'pi_1', object: 'payment_intent' },
        { timestamp: Math.floor(Date.now() / 1000) - 301 },
      );

      expect(thrownBy(() => sut.parseWebhook(event.payload, event.signature))).toMatchObject(WEBHOOK_INVALID);
    });

    it('should refuse a webhook without a signature', () => {
      const event = standIn.signedEvent('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' });

      expect(thrownBy(() => sut.parseWebhook(event.payload, ''))).toMatchObject(WEBHOOK_INVALID);
    });
  });
});
