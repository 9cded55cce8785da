import { BillingRpc } from '@likeness/contracts';
import { type StripeStandIn, createTestRpcClient, startStripeStandIn } from '@likeness/testing';
import { type BillingUnderTest, startBilling } from './billing-harness.js';

type Client = Awaited<ReturnType<typeof createTestRpcClient>>;

const TOO_MANY_PENDING =
  'You have started 5 payments in the last hour that are not finished yet. ' +
  'Please complete one of them, or try again later.';

async function pendingRowsOf(billing: BillingUnderTest, userId: number): Promise<number> {
  const { rows } = await billing.db.query(
    `SELECT count(*)::int AS n FROM billing.payments WHERE user_id = $1 AND status = 'pending'`,
    [userId],
  );
  return rows[0].n;
}

describe('pending payments per user, with Stripe', () => {
  let stripe: StripeStandIn;
  let billing: BillingUnderTest;
  let client: Client;
  const create = (userId: number, packageId = 'starter') =>
    client.rpc.call(BillingRpc.createPaymentIntent, { userId, packageId });

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    billing = await startBilling('pending-stripe', stripe.env);
    client = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace, 15_000);
  });

  afterAll(async () => {
    await client?.close();
    await billing?.close();
    await stripe?.stop();
  });

  it('should give back the unpaid intent of the same package instead of making another', async () => {
    const first = await create(1, 'creator');
    const again = await create(1, 'creator');
    expect(again).toEqual(first);
    const other = await create(1, 'starter');
    expect(other.paymentIntentId).not.toBe(first.paymentIntentId);
    expect(stripe.intents()).toHaveLength(2);
    expect(await pendingRowsOf(billing, 1)).toBe(2);
  });

  it('should give back an intent whose last attempt was declined, since it can still be paid', async () => {
    const first = await create(2);
    stripe.fail(first.paymentIntentId, 'Your card was declined.');
    await expect(create(2)).resolves.toEqual(first);
  });

  it('should refuse a sixth pending payment within the hour with 429, starting nothing', async () => {
    // Payments being settled (a bank debit) cannot take another attempt, so each new one is a new intent.
    const started = [];
    for (let index = 0; index < 5; index += 1) {
      const intent = await create(3);
      stripe.process(intent.paymentIntentId);
      started.push(intent.paymentIntentId);
    }
    expect(new Set(started).size).toBe(5);
    const intentsBefore = stripe.intents().length;

    for (const packageId of ['starter', 'creator', 'professional']) {
      await expect(create(3, packageId)).rejects.toMatchObject({
        code: 'COMMON.RATE_LIMITED',
        status: 429,
        message: TOO_MANY_PENDING,
      });
    }
    expect(stripe.intents()).toHaveLength(intentsBefore);
    expect(await pendingRowsOf(billing, 3)).toBe(5);

    // Someone else is not affected.
    await expect(create(4)).resolves.toMatchObject({ packageDetails: { id: 'starter' } });
  });

  it('should allow another once a pending payment completes, or is more than an hour old', async () => {
    const started = [];
    for (let index = 0; index < 5; index += 1) {
      const intent = await create(5);
      stripe.process(intent.paymentIntentId);
      started.push(intent.paymentIntentId);
    }
    await expect(create(5)).rejects.toMatchObject({ code: 'COMMON.RATE_LIMITED' });

    const event = stripe.signedEvent('payment_intent.succeeded', stripe.succeed(started[0]!));
    await client.rpc.call(BillingRpc.handleStripeWebhook, { payload: event.payload, signature: event.signature });
    const sixth = await create(5);
    stripe.process(sixth.paymentIntentId);
    await expect(create(5)).rejects.toMatchObject({ code: 'COMMON.RATE_LIMITED' });

    await billing.db.query(
      `UPDATE billing.payments SET created_at = now() - interval '61 minutes' WHERE provider_payment_id = $1`,
      [started[1]],
    );
    await expect(create(5)).resolves.toMatchObject({ packageDetails: { id: 'starter' } });
  });

  it('should never hold more than five pending payments when requests race', async () => {
    const packages = ['starter', 'creator', 'professional'];
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, index) => create(6, packages[index % 3])));
    const refused = results.filter((result) => result.status === 'rejected');
    for (const refusal of refused) expect(refusal.reason).toMatchObject({ code: 'COMMON.RATE_LIMITED', status: 429 });
    expect(await pendingRowsOf(billing, 6)).toBeLessThanOrEqual(5);
    const intents = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.paymentIntentId] : []));
    expect(new Set(intents).size).toBe(await pendingRowsOf(billing, 6));
  });
});

describe('pending payments per user, with the local test processor', () => {
  let billing: BillingUnderTest;
  let client: Client;

  beforeAll(async () => {
    billing = await startBilling('pending-local');
    client = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace, 15_000);
    await client.rpc.call(BillingRpc.openAccount, { userId: 1 });
  });

  afterAll(async () => {
    await client?.close();
    await billing?.close();
  });

  it('should give back the unpaid intent of the same package, and a new one once it is paid', async () => {
    const rpc = client.rpc;
    const first = await rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'creator' });
    await expect(rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'creator' })).resolves.toEqual(first);
    const { paymentIntentId } = first;
    await rpc.call(BillingRpc.confirmLocalPayment, { userId: 1, paymentIntentId, cardNumber: '4242424242424242' });
    await rpc.call(BillingRpc.confirmPayment, { userId: 1, paymentIntentId });

    const next = await rpc.call(BillingRpc.createPaymentIntent, { userId: 1, packageId: 'creator' });
    expect(next.paymentIntentId).not.toBe(paymentIntentId);
    await expect(rpc.call(BillingRpc.getBalance, { userId: 1 })).resolves.toMatchObject({ balance: 130 });
  });
});
