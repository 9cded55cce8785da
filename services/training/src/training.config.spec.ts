import { ConfigError, loadConfig } from '@likeness/nest-kit';
import { providerKindOf, trainingConfigSchema } from './training.config.js';

const base = { DATABASE_URL: 'postgres://localhost/likeness' };
const replicate = {
  ...base,
  REPLICATE_API_TOKEN: 'r8_token',
  REPLICATE_OWNER: 'likeness',
  REPLICATE_TRAINER_VERSION: `ostris/flux-dev-lora-trainer:${'a'.repeat(64)}`,
  REPLICATE_WEBHOOK_SECRET: 'whsec_c2VjcmV0',
  PUBLIC_URL: 'https://likeness.example/app',
};

describe('trainingConfigSchema', () => {
  it('should train locally by default, polling often enough to see a local training finish', () => {
    const config = loadConfig(trainingConfigSchema, base);
    expect(providerKindOf(config)).toBe('local');
    expect(config).toMatchObject({
      LOCAL_TRAINING_MS: 15_000,
      RECONCILE_INTERVAL_MS: 2_000,
      TRAINING_TIMEOUT_MS: 2 * 3_600_000,
      TRAINING_HOLD_SECONDS: 6 * 3600,
    });
    expect(loadConfig(trainingConfigSchema, { ...base, LOCAL_TRAINING_MS: '500' }).RECONCILE_INTERVAL_MS).toBe(100);
  });

  it('should use Replicate with a token, polling every 30 s as the webhooks fallback', () => {
    const config = loadConfig(trainingConfigSchema, replicate);
    expect(providerKindOf(config)).toBe('replicate');
    expect(config.RECONCILE_INTERVAL_MS).toBe(30_000);
    expect(config.PUBLIC_URL).toBe('https://likeness.example');
  });

  it.each(['REPLICATE_WEBHOOK_SECRET', 'PUBLIC_URL', 'REPLICATE_OWNER', 'REPLICATE_TRAINER_VERSION'])(
    'should refuse a Replicate token without %s',
    (name) => {
      const { [name as keyof typeof replicate]: _missing, ...env } = replicate;
      expect(() => loadConfig(trainingConfigSchema, env)).toThrow(ConfigError);
      expect(() => loadConfig(trainingConfigSchema, env)).toThrow(
        new RegExp(`${name}: set ${name} with REPLICATE_API_TOKEN`),
      );
    },
  );

  it('should refuse to start in production without Replicate unless the local provider is named', () => {
    const production = { ...base, NODE_ENV: 'production' };
    expect(() => loadConfig(trainingConfigSchema, production)).toThrow(
      'INFERENCE_PROVIDER: In production, trainings need REPLICATE_API_TOKEN, REPLICATE_OWNER, ' +
        'REPLICATE_TRAINER_VERSION, REPLICATE_WEBHOOK_SECRET and PUBLIC_URL; ' +
        'set INFERENCE_PROVIDER=local to run the local provider knowingly.',
    );
    const local = loadConfig(trainingConfigSchema, { ...production, INFERENCE_PROVIDER: 'local' });
    expect(providerKindOf(local)).toBe('local');
    expect(local.RECONCILE_INTERVAL_MS).toBe(2_000);
    expect(providerKindOf(loadConfig(trainingConfigSchema, { ...replicate, NODE_ENV: 'production' }))).toBe(
      'replicate',
    );
  });

  it.each(['development', 'production'])('should refuse INFERENCE_PROVIDER=replicate without a token in %s', (env) => {
    const { REPLICATE_API_TOKEN: _token, ...rest } = replicate;
    expect(() => loadConfig(trainingConfigSchema, { ...rest, NODE_ENV: env, INFERENCE_PROVIDER: 'replicate' })).toThrow(
      /REPLICATE_API_TOKEN: set REPLICATE_API_TOKEN with INFERENCE_PROVIDER=replicate/,
    );
    expect(() => loadConfig(trainingConfigSchema, { ...base, NODE_ENV: env, INFERENCE_PROVIDER: 'replicate' })).toThrow(
      /REPLICATE_OWNER: set REPLICATE_OWNER with/,
    );
  });

  it('should train locally when the local provider is named, even with a token set', () => {
    const config = loadConfig(trainingConfigSchema, { ...replicate, INFERENCE_PROVIDER: 'local' });
    expect(providerKindOf(config)).toBe('local');
    expect(config.RECONCILE_INTERVAL_MS).toBe(2_000);
  });

  it('should refuse a provider it does not know', () => {
    expect(() => loadConfig(trainingConfigSchema, { ...base, INFERENCE_PROVIDER: 'openai' })).toThrow(
      /INFERENCE_PROVIDER: must be replicate or local/,
    );
  });

  it('should refuse a hold that could lapse before the training times out', () => {
    expect(() =>
      loadConfig(trainingConfigSchema, { ...base, TRAINING_HOLD_SECONDS: '3600', TRAINING_TIMEOUT_MS: '7200000' }),
    ).toThrow(/TRAINING_HOLD_SECONDS: must be longer than TRAINING_TIMEOUT_MS/);
  });
});
