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

  it('should refuse a hold that could lapse before the training times out', () => {
    expect(() =>
      loadConfig(trainingConfigSchema, { ...base, TRAINING_HOLD_SECONDS: '3600', TRAINING_TIMEOUT_MS: '7200000' }),
    ).toThrow(/TRAINING_HOLD_SECONDS: must be longer than TRAINING_TIMEOUT_MS/);
  });
});
