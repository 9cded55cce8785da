import { randomUUID } from 'node:crypto';
import { paymentIntentIdSchema } from '@likeness/contracts';
import { loadConfig, runMigrations } from '@likeness/nest-kit';
import { type TestServiceEnvironment, createTestServiceEnvironment } from '@likeness/testing';
import { DataSource } from 'typeorm';
import { type BillingConfig, billingConfigSchema } from '../src/billing.config.js';
import { billingDatabase } from '../src/database/billing-database.js';
import { createPaymentProvider, isLocalPaymentProvider } from '../src/payments/providers/create-payment-provider.js';
import { LocalPaymentProvider } from '../src/payments/providers/local-payment-provider.js';
import type { CreateIntentInput } from '../src/payments/providers/payment-provider.js';
import { StripePaymentProvider } from '../src/payments/providers/stripe-payment-provider.js';

const SUCCEEDING_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';
const OTHER_CARD = '5555555555554444';
const DECLINED = { code: 'BILLING.PAYMENT_DECLINED', message: 'Your card was declined.' };
const TEST_CARDS_ONLY = {
  code: 'BILLING.PAYMENT_DECLINED',
  message: 'Test mode accepts only the test cards: 4242 4242 4242 4242 succeeds and 4000 0000 0000 0002 is declined.',
};

function purchase(overrides: Partial<CreateIntentInput> = {}): CreateIntentInput {
  return { paymentId: randomUUID(), userId: 3, packageId: 'creator', amountCents: 1100, credits: 125, ...overrides };
}

describe(LocalPaymentProvider.name, () => {
  let env: TestServiceEnvironment;
  let config: BillingConfig;
  let dataSource: DataSource;
  let sut: LocalPaymentProvider;

  beforeAll(async () => {
    env = await createTestServiceEnvironment('local-pay');
    config = loadConfig(billingConfigSchema, env.env);
    await runMigrations(billingDatabase(config));
    dataSource = await new DataSource(billingDatabase(config)).initialize();
    // Records every write to an intent, so a test can count state changes, not just read the end state.
    await dataSource.query(`CREATE TABLE public.intent_writes (intent_id text, old_status text, new_status text)`);
    await dataSource.query(`
      CREATE FUNCTION public.record_intent_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO public.intent_writes VALUES (OLD.id, OLD.status, NEW.status);
        RETURN NEW;
      END $$`);
    await dataSource.query(`
      CREATE TRIGGER record_intent_write AFTER UPDATE ON billing.local_payment_intents
      FOR EACH ROW EXECUTE FUNCTION public.record_intent_write()`);
    sut = new LocalPaymentProvider(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env?.database.drop();
  });

  const writesOf = async (intentId: string) =>
    dataSource.query<{ old_status: string; new_status: string }[]>(
      `SELECT old_status, new_status FROM public.intent_writes WHERE intent_id = $1`,
      [intentId],
    );

  it('should present itself as the local processor without a publishable key', () => {
    expect(sut).toMatchObject({ kind: 'local', publishableKey: null });
  });

  describe('createIntent', () => {
    it("should make an unpaid USD intent with a pi_local id and a client secret in Stripe's form", async () => {
      const input = purchase();

      const intent = await sut.createIntent(input);

      expect(intent).toEqual({
        id: expect.stringMatching(/^pi_local_[0-9a-f]{24}$/),
        clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_[A-Za-z0-9_-]+$`)),
        status: 'requires_payment_method',
        amountCents: 1100,
        currency: 'usd',
        metadata: { paymentId: input.paymentId, userId: '3', packageId: 'creator', credits: '125' },
      });
      // The SPA sends the id back through the contract's validation.
      expect(paymentIntentIdSchema.safeParse(intent.id).success).toBe(true);
    });

    it('should return the same intent when a create for one payment is repeated', async () => {
      const input = purchase();

      const first = await sut.createIntent(input);
      const again = await sut.createIntent(input);

      expect(again).toEqual(first);
    });

    it('should make one intent when creates for one payment race', async () => {
      const input = purchase();

      const intents = await Promise.all(Array.from({ length: 8 }, () => sut.createIntent(input)));

      expect(new Set(intents.map((intent) => intent.id)).size).toBe(1);
      const [{ count }] = await dataSource.query<{ count: string }[]>(
        `SELECT count(*) FROM billing.local_payment_intents WHERE idempotency_key = $1`,
        [input.paymentId],
      );
      expect(count).toBe('1');
    });

    it('should make different intents for different payments', async () => {
      const first = await sut.createIntent(purchase());
      const second = await sut.createIntent(purchase());

      expect(second.id).not.toBe(first.id);
      expect(second.clientSecret).not.toBe(first.clientSecret);
    });
  });

  describe('retrieveIntent', () => {
    it('should return the intent as created', async () => {
      const intent = await sut.createIntent(purchase());

      await expect(sut.retrieveIntent(intent.id)).resolves.toEqual(intent);
    });

    it('should return null when there is no such intent', async () => {
      await expect(sut.retrieveIntent('pi_local_000000000000000000000000')).resolves.toBeNull();
    });
  });

  describe('confirm', () => {
    it('should make the intent succeed when paid with 4242 4242 4242 4242', async () => {
      const { id } = await sut.createIntent(purchase());

      const confirmed = await sut.confirm(id, SUCCEEDING_CARD);

      expect(confirmed).toMatchObject({ id, status: 'succeeded' });
      expect(confirmed).not.toHaveProperty('failureMessage');
      await expect(sut.retrieveIntent(id)).resolves.toEqual(confirmed);
    });

    it('should decline 4000 0000 0000 0002 and leave the intent failed', async () => {
      const { id } = await sut.createIntent(purchase());

      await expect(sut.confirm(id, DECLINED_CARD)).rejects.toMatchObject(DECLINED);
      await expect(sut.retrieveIntent(id)).resolves.toMatchObject({
        status: 'failed',
        failureMessage: 'Your card was declined.',
      });
    });

    it('should let a declined intent succeed when paid again with the succeeding card', async () => {
      const { id } = await sut.createIntent(purchase());
      await expect(sut.confirm(id, DECLINED_CARD)).rejects.toMatchObject(DECLINED);

      const confirmed = await sut.confirm(id, SUCCEEDING_CARD);

      expect(confirmed.status).toBe('succeeded');
      expect(confirmed).not.toHaveProperty('failureMessage');
    });

    it('should refuse any other card number and leave the intent as it was', async () => {
      const intent = await sut.createIntent(purchase());

      await expect(sut.confirm(intent.id, OTHER_CARD)).rejects.toMatchObject(TEST_CARDS_ONLY);
      await expect(sut.retrieveIntent(intent.id)).resolves.toEqual(intent);
      expect(await writesOf(intent.id)).toEqual([]);
    });

    it.each([
      ['the succeeding card', SUCCEEDING_CARD],
      ['the declined card', DECLINED_CARD],
      ['another card', OTHER_CARD],
    ])('should say the payment was not found when an unknown intent is paid with %s', async (_card, cardNumber) => {
      await expect(sut.confirm('pi_local_000000000000000000000000', cardNumber)).rejects.toMatchObject({
        code: 'BILLING.PAYMENT_NOT_FOUND',
        message: 'We could not find that payment.',
      });
    });

    it('should return a succeeded intent unchanged when it is confirmed again with any card', async () => {
      const { id } = await sut.createIntent(purchase());
      const succeeded = await sut.confirm(id, SUCCEEDING_CARD);

      await expect(sut.confirm(id, SUCCEEDING_CARD)).resolves.toEqual(succeeded);
      await expect(sut.confirm(id, DECLINED_CARD)).resolves.toEqual(succeeded);
      await expect(sut.confirm(id, OTHER_CARD)).resolves.toEqual(succeeded);
      expect(await writesOf(id)).toEqual([{ old_status: 'requires_payment_method', new_status: 'succeeded' }]);
    });

    it('should change the intent once when ten confirms race', async () => {
      const { id } = await sut.createIntent(purchase());

      const results = await Promise.all(Array.from({ length: 10 }, () => sut.confirm(id, SUCCEEDING_CARD)));

      expect(results.map((result) => result.status)).toEqual(Array(10).fill('succeeded'));
      expect(await writesOf(id)).toEqual([{ old_status: 'requires_payment_method', new_status: 'succeeded' }]);
    });
  });

  describe('parseWebhook', () => {
    it('should refuse every webhook because only Stripe sends them', () => {
      expect(() => sut.parseWebhook('{"id":"evt_1","object":"event"}', 't=1,v1=abc')).toThrow(
        'This installation uses the local test processor and accepts no Stripe webhooks.',
      );
      expect(() => sut.parseWebhook('{}', '')).toThrow(expect.objectContaining({ code: 'BILLING.WEBHOOK_INVALID' }));
    });
  });
});

describe(createPaymentProvider.name, () => {
  const base = { DATABASE_URL: 'postgres://unused@127.0.0.1/unused', NATS_URL: 'nats://127.0.0.1:4222' };
  // The factory only builds the provider; nothing here touches the database.
  const dataSource = new DataSource({ type: 'postgres' });

  it('should choose the local test processor when no Stripe secret key is set', () => {
    const provider = createPaymentProvider(loadConfig(billingConfigSchema, base), dataSource);

    expect(isLocalPaymentProvider(provider)).toBe(true);
    expect(provider.kind).toBe('local');
  });

  it('should choose Stripe with the publishable key when a Stripe secret key is set', () => {
    const config = loadConfig(billingConfigSchema, {
      ...base,
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
    });

    const provider = createPaymentProvider(config, dataSource);

    expect(provider).toBeInstanceOf(StripePaymentProvider);
    expect(isLocalPaymentProvider(provider)).toBe(false);
    expect(provider).toMatchObject({ kind: 'stripe', publishableKey: 'pk_test_123' });
  });
});
