import { BillingRpc } from '@likeness/contracts';
import { type StripeStandIn, createTestRpcClient, expectSnapshotPaging, startStripeStandIn } from '@likeness/testing';
import { PaymentsService } from '../src/payments/payments.service.js';
import { type BillingUnderTest, expectLedgerConserved, startBilling } from './billing-harness.js';

type Rpc = Awaited<ReturnType<typeof createTestRpcClient>>['rpc'];

async function outboxCount(billing: BillingUnderTest, subject: string): Promise<number> {
  const { rows } = await billing.db.query(`SELECT count(*)::int AS n FROM billing.outbox WHERE subject = $1`, [
    subject,
  ]);
  return rows[0].n;
}

describe('payments through Stripe', () => {
  let stripe: StripeStandIn;
  let billing: BillingUnderTest;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;
  let rpc: Rpc;
  let webhook: (type: string, object: object, options?: { timestamp?: number }) => Promise<unknown>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    billing = await startBilling('stripe-pay', stripe.env);
    client = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace, 15_000);
    rpc = client.rpc;
    webhook = (type, object, options) => {
      const event = stripe.signedEvent(type, object, options);
      return rpc.call(BillingRpc.handleStripeWebhook, { payload: event.payload, signature: event.signature });
    };
    await rpc.call(BillingRpc.openAccount, { userId: 1 });
    await rpc.call(BillingRpc.openAccount, { userId: 2 });
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await client?.close();
    await billing?.close();
    await stripe?.stop();
  });

  it('should serve the packages from its tables and Stripe as the provider', async () => {
    await expect(rpc.call(BillingRpc.listPackages, {})).resolves.toEqual([
      expect.objectContaining({ id: 'starter', name: 'Starter Pack', credits: 50, price: 5, popular: false }),
      expect.objectContaining({ id: 'creator', name: 'Creator Pack', credits: 125, price: 11, popular: true }),
      expect.objectContaining({
        id: 'professional',
        name: 'Professional Pack',
        credits: 275,
        price: 22,
        popular: false,
      }),
    ]);
    await expect(rpc.call(BillingRpc.getPaymentConfig, {})).resolves.toEqual({
      provider: 'stripe',
      publishableKey: stripe.publishableKey,
    });
  });

  it('should create the intent with the amount of our package, never the client’s', async () => {
    const intent = await rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'creator' });
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.paymentIntentId}_secret_`));
    expect(intent.packageDetails).toMatchObject({ id: 'creator', credits: 125, price: 11 });
    expect(stripe.intent(intent.paymentIntentId)).toMatchObject({
      amount: 1100,
      currency: 'usd',
      metadata: { userId: '1', packageId: 'creator' },
    });
    await expect(rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'platinum' })).rejects.toMatchObject({
      code: 'BILLING.PACKAGE_NOT_FOUND',
      status: 404,
    });
  });

  it('should grant once when the same webhook arrives 20 times at once and the buyer confirms meanwhile', async () => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'creator' });
    const before = await rpc.call(BillingRpc.getBalance, { userId: 1 });
    stripe.succeed(paymentIntentId);
    const event = stripe.signedEvent('payment_intent.succeeded', stripe.intent(paymentIntentId));
    const deliveries = Array.from({ length: 20 }, () =>
      rpc.call(BillingRpc.handleStripeWebhook, { payload: event.payload, signature: event.signature }),
    );
    const confirmations = [1, 2, 3].map(() => rpc.call(BillingRpc.confirmPayment, { userId: 1, paymentIntentId }));
    await Promise.all(deliveries);
    for (const confirmation of await Promise.all(confirmations)) expect(confirmation).toEqual({ credits: 125 });

    await expect(rpc.call(BillingRpc.getBalance, { userId: 1 })).resolves.toMatchObject({
      balance: before.balance + 125,
    });
    const { rows } = await billing.db.query(
      `SELECT count(*)::int AS n FROM billing.ledger_entries WHERE idempotency_key = $1`,
      [`payment:${paymentIntentId}`],
    );
    expect(rows[0].n).toBe(2);
    expect(await outboxCount(billing, 'events.billing.PaymentSucceeded.v1')).toBe(1);
  });

  it('should let only the buyer confirm a payment', async () => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'starter' });
    stripe.succeed(paymentIntentId);
    await expect(rpc.call(BillingRpc.confirmPayment, { userId: 2, paymentIntentId })).rejects.toMatchObject({
      code: 'BILLING.PAYMENT_NOT_FOUND',
      status: 404,
    });
    await expect(
      rpc.call(BillingRpc.confirmPayment, { userId: 2, paymentIntentId: 'pi_does_not_exist' }),
    ).rejects.toMatchObject({
      code: 'BILLING.PAYMENT_NOT_FOUND',
    });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 2 })).resolves.toMatchObject({ balance: 5 });
    await expect(rpc.call(BillingRpc.confirmPayment, { userId: 1, paymentIntentId })).resolves.toEqual({ credits: 50 });
  });

  it('should say a payment is still processing, and refuse a declined one', async () => {
    const pending = await rpc.call(BillingRpc.createPaymentIntent, { userId: 2, packageId: 'starter' });
    await expect(
      rpc.call(BillingRpc.confirmPayment, { userId: 2, paymentIntentId: pending.paymentIntentId }),
    ).rejects.toMatchObject({
      code: 'BILLING.PAYMENT_PENDING',
      status: 409,
    });
    stripe.fail(pending.paymentIntentId, 'Your card has insufficient funds.');
    await webhook('payment_intent.payment_failed', stripe.intent(pending.paymentIntentId));
    await expect(
      rpc.call(BillingRpc.confirmPayment, { userId: 2, paymentIntentId: pending.paymentIntentId }),
    ).rejects.toMatchObject({
      code: 'BILLING.PAYMENT_DECLINED',
      message: 'Your card has insufficient funds.',
    });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 2 })).resolves.toMatchObject({ balance: 5 });
  });

  it.each([
    [
      'a bad signature',
      (event: { payload: string; signature: string }) => ({
        ...event,
        signature: event.signature.replace(/v1=\w{4}/, 'v1=beef'),
      }),
    ],
    [
      'a tampered body',
      (event: { payload: string; signature: string }) => ({
        ...event,
        payload: event.payload.replace('"amount":1100', '"amount":1'),
      }),
    ],
  ])('should refuse a webhook with %s and change nothing', async (_name, spoil) => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 2, packageId: 'creator' });
    const event = spoil(
      stripe.signedEvent('payment_intent.succeeded', { ...stripe.intent(paymentIntentId), status: 'succeeded' }),
    );
    await expect(
      rpc.call(BillingRpc.handleStripeWebhook, { payload: event.payload, signature: event.signature }),
    ).rejects.toMatchObject({
      code: 'BILLING.WEBHOOK_INVALID',
      status: 400,
    });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 2 })).resolves.toMatchObject({ balance: 5 });
  });

  it('should refuse a stale webhook and change nothing', async () => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 2, packageId: 'creator' });
    const staleSeconds = Math.floor(Date.now() / 1000) - 3600;
    await expect(
      webhook(
        'payment_intent.succeeded',
        { ...stripe.intent(paymentIntentId), status: 'succeeded' },
        { timestamp: staleSeconds },
      ),
    ).rejects.toMatchObject({ code: 'BILLING.WEBHOOK_INVALID' });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 2 })).resolves.toMatchObject({ balance: 5 });
  });

  it('should take back refunded credits, never below zero, recording what it could not recover', async () => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 3, packageId: 'starter' });
    stripe.succeed(paymentIntentId);
    await rpc.call(BillingRpc.confirmPayment, { userId: 3, paymentIntentId });
    // The buyer spends 40 of the 50 credits, then Stripe refunds half, then all of it.
    await rpc.call(BillingRpc.reserveCredits, { userId: 3, amount: 40, reference: 'training:spent' });
    await rpc.call(BillingRpc.captureCredits, { reference: 'training:spent' });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 3 })).resolves.toMatchObject({ balance: 10 });

    await webhook('charge.refunded', stripe.chargeFor(paymentIntentId, { amountRefunded: 250 }));
    await expect(rpc.call(BillingRpc.getBalance, { userId: 3 })).resolves.toMatchObject({ balance: 0 });
    await webhook('charge.refunded', stripe.chargeFor(paymentIntentId, { amountRefunded: 500 }));
    // The same event again changes nothing.
    await webhook('charge.refunded', stripe.chargeFor(paymentIntentId, { amountRefunded: 500 }));
    await expect(rpc.call(BillingRpc.getBalance, { userId: 3 })).resolves.toMatchObject({ balance: 0 });
    const { rows } = await billing.db.query(
      `SELECT status, credits_reversed, credits_unrecovered FROM billing.payments WHERE provider_payment_id = $1`,
      [paymentIntentId],
    );
    expect(rows[0]).toEqual({ status: 'refunded', credits_reversed: 10, credits_unrecovered: 40 });
    // Reporting hears of each change once: the half refund, then the whole one; never the repeat.
    const { rows: refunds } = await billing.db.query(
      `SELECT envelope->'payload' AS payload FROM billing.outbox
       WHERE subject = 'events.billing.PaymentRefunded.v1' AND envelope->'payload'->>'userId' = '3'
       ORDER BY created_at`,
    );
    expect(refunds.map((row) => row.payload)).toEqual([
      expect.objectContaining({ kind: 'refund', amountCents: 250, status: 'succeeded', creditsTakenBack: 10 }),
      expect.objectContaining({ kind: 'refund', amountCents: 500, status: 'refunded', creditsTakenBack: 10 }),
    ]);
  });

  it('should take back disputed credits', async () => {
    const { paymentIntentId } = await rpc.call(BillingRpc.createPaymentIntent, { userId: 4, packageId: 'starter' });
    stripe.succeed(paymentIntentId);
    await webhook('payment_intent.succeeded', stripe.intent(paymentIntentId));
    await expect(rpc.call(BillingRpc.getBalance, { userId: 4 })).resolves.toMatchObject({ balance: 50 });
    await webhook('charge.dispute.created', stripe.disputeFor(paymentIntentId));
    await expect(rpc.call(BillingRpc.getBalance, { userId: 4 })).resolves.toMatchObject({ balance: 0 });
  });

  it('should ignore events it does not act on', async () => {
    await expect(webhook('customer.created', { id: 'cus_1', object: 'customer' })).resolves.toEqual({ received: true });
  });

  it('should record a create that the provider refused as failed, leaving nothing pending', async () => {
    stripe.failNext(10, 500);
    await expect(rpc.call(BillingRpc.createPaymentIntent, { userId: 5, packageId: 'starter' })).rejects.toMatchObject({
      code: 'BILLING.PROVIDER_UNAVAILABLE',
    });
    const { rows } = await billing.db.query(`SELECT status FROM billing.payments WHERE user_id = 5`);
    expect(rows).toEqual([{ status: 'failed' }]);
  });

  it("should snapshot the granted payments and open accounts page by page, each payment at its PaymentSucceeded's time", async () => {
    const payments = await expectSnapshotPaging(rpc, BillingRpc.snapshotPayments, (item) => item.paymentId);
    const envelopes = async (subject: string) =>
      (
        await billing.db.query(
          `SELECT envelope FROM billing.outbox WHERE subject = $1 ORDER BY envelope->>'occurredAt'`,
          [subject],
        )
      ).rows.map((row) => row.envelope);
    const refunds = await envelopes('events.billing.PaymentRefunded.v1');
    const succeeded = await envelopes('events.billing.PaymentSucceeded.v1');
    // As the events told it: granted at the PaymentSucceeded's time, as the last refund left it.
    const told = succeeded.map(({ payload, occurredAt }) => {
      const last = refunds.filter((refund) => refund.payload.paymentId === payload.paymentId).at(-1)?.payload;
      return {
        paymentId: payload.paymentId,
        userId: payload.userId,
        packageId: payload.packageId,
        amountCents: payload.amountCents,
        credits: payload.credits,
        status: last?.status ?? 'succeeded',
        refundedCents: last?.amountCents ?? 0,
        succeededAt: occurredAt,
      };
    });
    expect(payments).toEqual(told.sort((a, b) => (a.paymentId < b.paymentId ? -1 : 1)));
    expect(payments.map((payment) => payment.status)).toEqual(expect.arrayContaining(['refunded', 'disputed']));

    const accounts = await expectSnapshotPaging(rpc, BillingRpc.snapshotAccounts, (item) => item.userId);
    const { rows } = await billing.db.query<{ userId: number; balance: number; available: number; at: Date }>(
      `SELECT user_id AS "userId", balance, balance - held AS available, balance_changed_at AS at
       FROM billing.accounts ORDER BY user_id`,
    );
    expect(accounts).toEqual(rows.map(({ at, ...row }) => ({ ...row, balanceChangedAt: at.toISOString() })));
    // The time of each account's newest CreditsChanged, the one whose balance reporting keeps.
    const newest = await billing.db.query<{ userId: number; at: string }>(
      `SELECT (envelope->'payload'->>'userId')::int AS "userId", max(envelope->>'occurredAt') AS at
       FROM billing.outbox WHERE subject = 'events.billing.CreditsChanged.v1' GROUP BY 1`,
    );
    expect(newest.rows.length).toBeGreaterThan(0);
    for (const { userId, at } of newest.rows) {
      expect(accounts.find((account) => account.userId === userId)?.balanceChangedAt).toBe(at);
    }
  });
});

describe('payments through the local test processor', () => {
  let billing: BillingUnderTest;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;

  beforeAll(async () => {
    billing = await startBilling('local-pay');
    client = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace);
    await client.rpc.call(BillingRpc.openAccount, { userId: 1 });
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await client?.close();
    await billing?.close();
  });

  it('should say it is the local processor, with no publishable key', async () => {
    await expect(client.rpc.call(BillingRpc.getPaymentConfig, {})).resolves.toEqual({
      provider: 'local',
      publishableKey: null,
    });
  });

  it('should decline the declined test card, then accept the good one and grant once', async () => {
    const rpc = client.rpc;
    const { paymentIntentId, clientSecret } = await rpc.call(BillingRpc.createPaymentIntent, {
      userId: 1,
      packageId: 'creator',
    });
    expect(clientSecret).toMatch(new RegExp(`^${paymentIntentId}_secret_`));
    await expect(
      rpc.call(BillingRpc.confirmLocalPayment, { userId: 1, paymentIntentId, cardNumber: '4000 0000 0000 0002' }),
    ).rejects.toMatchObject({ code: 'BILLING.PAYMENT_DECLINED', status: 402, message: 'Your card was declined.' });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 1 })).resolves.toMatchObject({ balance: 5 });

    await expect(
      rpc.call(BillingRpc.confirmLocalPayment, { userId: 1, paymentIntentId, cardNumber: '4242 4242 4242 4242' }),
    ).resolves.toEqual({ paymentIntentId, status: 'succeeded' });
    await expect(rpc.call(BillingRpc.confirmPayment, { userId: 1, paymentIntentId })).resolves.toEqual({
      credits: 125,
    });
    await expect(rpc.call(BillingRpc.getBalance, { userId: 1 })).resolves.toMatchObject({ balance: 130 });
    expect(await outboxCount(billing, 'events.billing.PaymentSucceeded.v1')).toBe(1);
  });

  it('should not let another user pay or confirm someone’s intent', async () => {
    const { paymentIntentId } = await client.rpc.call(BillingRpc.createPaymentIntent, {
      userId: 1,
      packageId: 'starter',
    });
    await expect(
      client.rpc.call(BillingRpc.confirmLocalPayment, { userId: 9, paymentIntentId, cardNumber: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'BILLING.PAYMENT_NOT_FOUND' });
  });

  it('should refuse Stripe webhooks', async () => {
    await expect(
      client.rpc.call(BillingRpc.handleStripeWebhook, { payload: '{}', signature: 't=1,v1=abc' }),
    ).rejects.toMatchObject({
      code: 'BILLING.WEBHOOK_INVALID',
    });
    expect(billing.app.get(PaymentsService).config()).toEqual({ provider: 'local', publishableKey: null });
  });
});
