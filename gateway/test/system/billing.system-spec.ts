import { type StripeStandIn, startStripeStandIn } from '@likeness/testing';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

interface Session {
  cookie: string;
}

function client(stack: RunningStack) {
  let ip = 0;
  const call = async (
    path: string,
    options: {
      method?: string;
      body?: unknown;
      session?: Session;
      headers?: Record<string, string>;
      rawBody?: string;
    } = {},
  ) => {
    ip += 1;
    const response = await fetch(`${stack.url}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        'x-forwarded-for': `198.51.100.${ip % 250}`,
        ...(options.body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.session ? { cookie: options.session.cookie } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : options.rawBody !== undefined
          ? { body: options.rawBody }
          : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      text,
    };
  };
  const register = async (username: string): Promise<Session> => {
    const result = await call('/api/register', {
      method: 'POST',
      body: { username, email: `${username}@example.com`, password: 'secret-password' },
    });
    expect(result.status).toBe(201);
    expect(result.json).toMatchObject({ credits: 5 });
    return {
      cookie: result.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    };
  };
  return { call, register };
}

describe('buying credits with the local test processor', () => {
  let stack: RunningStack;
  let api: ReturnType<typeof client>;
  let buyer: Session;
  let other: Session;

  beforeAll(async () => {
    stack = await startTestStack();
    api = client(stack);
    buyer = await api.register('buyer');
    other = await api.register('other_user');
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should list the packages to anyone and say the local processor is in use', async () => {
    const packages = await api.call('/api/credit-packages');
    expect(packages.json).toEqual([
      {
        id: 'starter',
        name: 'Starter Pack',
        description: expect.any(String),
        credits: 50,
        price: 5,
        value: expect.any(String),
        popular: false,
      },
      {
        id: 'creator',
        name: 'Creator Pack',
        description: expect.any(String),
        credits: 125,
        price: 11,
        value: expect.any(String),
        popular: true,
      },
      {
        id: 'professional',
        name: 'Professional Pack',
        description: expect.any(String),
        credits: 275,
        price: 22,
        value: expect.any(String),
        popular: false,
      },
    ]);
    expect((await api.call('/api/payments/config')).json).toEqual({ provider: 'local', publishableKey: null });
  });

  it('should buy the Creator Pack with the test card and show 125 more credits at once', async () => {
    const intent = await api.call('/api/create-payment-intent', {
      method: 'POST',
      body: { packageId: 'creator' },
      session: buyer,
    });
    expect(intent.status).toBe(200);
    expect(intent.json).toMatchObject({
      provider: 'local',
      packageDetails: { id: 'creator', credits: 125, price: 11 },
    });
    const paymentIntentId = intent.json!['paymentIntentId'] as string;
    expect(intent.json!['clientSecret']).toMatch(new RegExp(`^${paymentIntentId}_secret_`));

    const paid = await api.call('/api/local-payments/confirm', {
      method: 'POST',
      body: { paymentIntentId, cardNumber: '4242 4242 4242 4242' },
      session: buyer,
    });
    expect(paid.json).toEqual({ paymentIntentId, status: 'succeeded' });
    const confirmed = await api.call('/api/confirm-payment', {
      method: 'POST',
      body: { paymentIntentId },
      session: buyer,
    });
    expect(confirmed.json).toEqual({ credits: 125 });
    expect((await api.call('/api/user', { session: buyer })).json).toMatchObject({ credits: 130 });
  });

  it('should decline the declined test card with a clear message and add nothing', async () => {
    const intent = await api.call('/api/create-payment-intent', {
      method: 'POST',
      body: { packageId: 'starter' },
      session: other,
    });
    const paymentIntentId = intent.json!['paymentIntentId'] as string;
    expectError(
      await api.call('/api/local-payments/confirm', {
        method: 'POST',
        body: { paymentIntentId, cardNumber: '4000000000000002' },
        session: other,
      }),
      402,
      'BILLING.PAYMENT_DECLINED',
      'Your card was declined.',
    );
    expect((await api.call('/api/user', { session: other })).json).toMatchObject({ credits: 5 });
  });

  it("should not let a user confirm or pay someone else's intent", async () => {
    const intent = await api.call('/api/create-payment-intent', {
      method: 'POST',
      body: { packageId: 'starter' },
      session: buyer,
    });
    const paymentIntentId = intent.json!['paymentIntentId'] as string;
    expectError(
      await api.call('/api/local-payments/confirm', {
        method: 'POST',
        body: { paymentIntentId, cardNumber: '4242424242424242' },
        session: other,
      }),
      404,
      'BILLING.PAYMENT_NOT_FOUND',
    );
    expectError(
      await api.call('/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, session: other }),
      404,
      'BILLING.PAYMENT_NOT_FOUND',
    );
    expect((await api.call('/api/user', { session: other })).json).toMatchObject({ credits: 5 });
  });

  it('should refuse bad input with a clear 4xx and change nothing', async () => {
    expectError(
      await api.call('/api/create-payment-intent', { method: 'POST', body: { packageId: 'diamond' }, session: buyer }),
      404,
      'BILLING.PACKAGE_NOT_FOUND',
      'That credit package does not exist.',
    );
    expectError(
      await api.call('/api/create-payment-intent', { method: 'POST', body: {}, session: buyer }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Please select a credit package to continue.',
    );
    expectError(
      await api.call('/api/confirm-payment', {
        method: 'POST',
        body: { paymentIntentId: "x'; drop table" },
        session: buyer,
      }),
      400,
      'COMMON.VALIDATION_FAILED',
      'That is not a payment intent id.',
    );
    expectError(
      await api.call('/api/confirm-payment', { method: 'POST', body: {}, session: buyer }),
      400,
      'COMMON.VALIDATION_FAILED',
      'A payment intent id is required.',
    );
    expectError(
      await api.call('/api/confirm-payment', {
        method: 'POST',
        body: { paymentIntentId: 'pi_unknown123' },
        session: buyer,
      }),
      404,
      'BILLING.PAYMENT_NOT_FOUND',
    );
    expectError(
      await api.call('/api/local-payments/confirm', {
        method: 'POST',
        body: { paymentIntentId: 'pi_x', cardNumber: '42' },
        session: buyer,
      }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Please enter a card number of 12 to 19 digits.',
    );
    expectError(
      await api.call('/api/create-payment-intent', { method: 'POST', body: { packageId: 'creator' } }),
      401,
      'AUTH.UNAUTHENTICATED',
    );
    expect((await api.call('/api/user', { session: buyer })).json).toMatchObject({ credits: 130 });
  });

  it('should refuse Stripe webhooks while the local processor is in use', async () => {
    expectError(
      await api.call('/api/webhooks/stripe', {
        method: 'POST',
        rawBody: '{"id":"evt_1"}',
        headers: { 'stripe-signature': 't=1,v1=00' },
      }),
      400,
      'BILLING.WEBHOOK_INVALID',
    );
  });
});

describe('buying credits with Stripe', () => {
  let stripe: StripeStandIn;
  let stack: RunningStack;
  let api: ReturnType<typeof client>;
  let buyer: Session;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    stack = await startTestStack(stripe.env);
    api = client(stack);
    buyer = await api.register('stripe_buyer');
  });

  afterAll(async () => {
    await stack?.shutdown();
    await stripe?.stop();
  });

  it('should serve the publishable key, grant once from the signed webhook over HTTP, and refuse a forged one', async () => {
    expect((await api.call('/api/payments/config')).json).toEqual({
      provider: 'stripe',
      publishableKey: stripe.publishableKey,
    });
    const intent = await api.call('/api/create-payment-intent', {
      method: 'POST',
      body: { packageId: 'professional' },
      session: buyer,
    });
    const paymentIntentId = intent.json!['paymentIntentId'] as string;
    expect(stripe.intent(paymentIntentId)).toMatchObject({ amount: 2200 });
    expectError(
      await api.call('/api/local-payments/confirm', {
        method: 'POST',
        body: { paymentIntentId, cardNumber: '4242424242424242' },
        session: buyer,
      }),
      404,
      'COMMON.NOT_FOUND',
    );

    const forged = stripe.signedEvent('payment_intent.succeeded', {
      ...stripe.intent(paymentIntentId),
      status: 'succeeded',
    });
    expectError(
      await api.call('/api/webhooks/stripe', {
        method: 'POST',
        rawBody: forged.payload.replace('2200', '22'),
        headers: { 'stripe-signature': forged.signature },
      }),
      400,
      'BILLING.WEBHOOK_INVALID',
    );
    expectError(
      await api.call('/api/webhooks/stripe', { method: 'POST', rawBody: forged.payload }),
      400,
      'BILLING.WEBHOOK_INVALID',
    );
    expect((await api.call('/api/user', { session: buyer })).json).toMatchObject({ credits: 5 });

    const event = stripe.signedEvent('payment_intent.succeeded', stripe.succeed(paymentIntentId));
    // Stripe posts from its own servers: no Origin, and the route is exempt from the CSRF check anyway.
    const deliveries = await Promise.all(
      [1, 2, 3].map(() =>
        api.call('/api/webhooks/stripe', {
          method: 'POST',
          rawBody: event.payload,
          headers: { 'stripe-signature': event.signature, origin: 'https://stripe.com' },
        }),
      ),
    );
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    expect((await api.call('/api/user', { session: buyer })).json).toMatchObject({ credits: 280 });
    expect(
      (await api.call('/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, session: buyer })).json,
    ).toEqual({ credits: 275 });
    expect((await api.call('/api/user', { session: buyer })).json).toMatchObject({ credits: 280 });
  });

  it('should give back the unpaid intent of a package, and refuse a sixth pending payment with a 429 a person understands', async () => {
    const hurried = await api.register('hurried_buyer');
    const create = (packageId: string) =>
      api.call('/api/create-payment-intent', { method: 'POST', body: { packageId }, session: hurried });
    const first = await create('starter');
    expect(first.status).toBe(200);
    const again = await create('starter');
    expect(again.json).toEqual(first.json);

    // Payments settling at Stripe (bank debits) take no second attempt: each new one is a new intent.
    stripe.process(first.json!['paymentIntentId'] as string);
    for (let index = 0; index < 4; index += 1) {
      const next = await create('starter');
      expect(next.status).toBe(200);
      stripe.process(next.json!['paymentIntentId'] as string);
    }
    const intentsBefore = stripe.intents().length;
    expectError(
      await create('creator'),
      429,
      'COMMON.RATE_LIMITED',
      'You have started 5 payments in the last hour that are not finished yet. Please complete one of them, or try again later.',
    );
    expect(stripe.intents()).toHaveLength(intentsBefore);
    // The buyer from before is not affected.
    expect(
      (await api.call('/api/create-payment-intent', { method: 'POST', body: { packageId: 'creator' }, session: buyer }))
        .status,
    ).toBe(200);
  });
});
