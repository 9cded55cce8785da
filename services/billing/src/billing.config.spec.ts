import { ConfigError, loadConfig } from '@likeness/nest-kit';
import { billingConfigSchema } from './billing.config.js';

const base = { DATABASE_URL: 'postgres://localhost/likeness' };
const stripe = {
  STRIPE_SECRET_KEY: 'sk_live_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_123',
};
const IN_PRODUCTION =
  'PAYMENTS_PROVIDER: In production, payments need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY; ' +
  'set PAYMENTS_PROVIDER=local to run the local test processor knowingly.';

/** The problems loadConfig lists for this environment, or [] when it is accepted. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(billingConfigSchema, { ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('billingConfigSchema', () => {
  it.each(['development', 'test'])('should use the local test processor without Stripe keys in %s', (NODE_ENV) => {
    expect(loadConfig(billingConfigSchema, { ...base, NODE_ENV }).PAYMENTS_PROVIDER).toBe('local');
  });

  it.each(['development', 'test', 'production'])('should use Stripe when its keys are set in %s', (NODE_ENV) => {
    expect(loadConfig(billingConfigSchema, { ...base, ...stripe, NODE_ENV }).PAYMENTS_PROVIDER).toBe('stripe');
  });

  it('should refuse to start in production without Stripe keys unless the local processor is named', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([IN_PRODUCTION]);
    expect(problemsOf({ NODE_ENV: 'production', PAYMENTS_PROVIDER: '' })).toEqual([IN_PRODUCTION]);
    expect(
      loadConfig(billingConfigSchema, { ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'local' })
        .PAYMENTS_PROVIDER,
    ).toBe('local');
  });

  it('should refuse to start in production with a Stripe secret key alone', () => {
    expect(problemsOf({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_123' })).toEqual([
      'STRIPE_SECRET_KEY: set STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY with STRIPE_SECRET_KEY',
    ]);
  });

  it.each(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'])(
    'should refuse PAYMENTS_PROVIDER=stripe without %s in any environment',
    (name) => {
      const { [name as keyof typeof stripe]: _missing, ...rest } = stripe;
      for (const NODE_ENV of ['development', 'production']) {
        expect(problemsOf({ ...rest, NODE_ENV, PAYMENTS_PROVIDER: 'stripe' })).toContain(
          `${name}: set ${name} with PAYMENTS_PROVIDER=stripe`,
        );
      }
    },
  );

  it('should use Stripe when it is named with its keys', () => {
    const config = loadConfig(billingConfigSchema, {
      ...base,
      ...stripe,
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'stripe',
    });
    expect(config.PAYMENTS_PROVIDER).toBe('stripe');
  });

  it('should run the local processor when it is named, even with Stripe keys set', () => {
    const config = loadConfig(billingConfigSchema, { ...base, ...stripe, PAYMENTS_PROVIDER: 'local' });
    expect(config.PAYMENTS_PROVIDER).toBe('local');
  });

  it('should refuse a provider it does not know', () => {
    expect(problemsOf({ PAYMENTS_PROVIDER: 'paypal' })).toEqual(['PAYMENTS_PROVIDER: must be stripe or local']);
  });
});
