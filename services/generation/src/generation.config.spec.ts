import { ConfigError, loadConfig } from '@likeness/nest-kit';
import { generationConfigSchema, predictionProviderKind } from './generation.config.js';

const base = { DATABASE_URL: 'postgres://localhost/likeness' };
const IN_PRODUCTION =
  'INFERENCE_PROVIDER: In production, generation needs REPLICATE_API_TOKEN; ' +
  'set INFERENCE_PROVIDER=local to run the local preview generator knowingly.';

describe('generationConfigSchema', () => {
  it.each(['development', 'test'])('should make local previews without a Replicate token in %s', (NODE_ENV) => {
    expect(predictionProviderKind(loadConfig(generationConfigSchema, { ...base, NODE_ENV }))).toBe('local');
  });

  it.each(['development', 'production'])('should use Replicate with a token in %s', (NODE_ENV) => {
    const config = loadConfig(generationConfigSchema, { ...base, NODE_ENV, REPLICATE_API_TOKEN: 'r8_x' });
    expect(predictionProviderKind(config)).toBe('replicate');
  });

  it.each(['all', 'api', 'worker'])(
    'should refuse to start the %s role in production without a token unless the local provider is named',
    (GENERATION_ROLE) => {
      const production = { ...base, NODE_ENV: 'production', GENERATION_ROLE };
      expect(() => loadConfig(generationConfigSchema, production)).toThrow(ConfigError);
      expect(() => loadConfig(generationConfigSchema, production)).toThrow(IN_PRODUCTION);
      const local = loadConfig(generationConfigSchema, { ...production, INFERENCE_PROVIDER: 'local' });
      expect(predictionProviderKind(local)).toBe('local');
    },
  );

  it.each(['development', 'production'])('should refuse INFERENCE_PROVIDER=replicate without a token in %s', (env) => {
    expect(() =>
      loadConfig(generationConfigSchema, { ...base, NODE_ENV: env, INFERENCE_PROVIDER: 'replicate' }),
    ).toThrow('REPLICATE_API_TOKEN: set REPLICATE_API_TOKEN with INFERENCE_PROVIDER=replicate');
  });

  it('should make local previews when the local provider is named, even with a token set', () => {
    const config = loadConfig(generationConfigSchema, {
      ...base,
      REPLICATE_API_TOKEN: 'r8_x',
      INFERENCE_PROVIDER: 'local',
    });
    expect(predictionProviderKind(config)).toBe('local');
  });

  it('should refuse a provider it does not know', () => {
    expect(() => loadConfig(generationConfigSchema, { ...base, INFERENCE_PROVIDER: 'openai' })).toThrow(
      /INFERENCE_PROVIDER: must be replicate or local/,
    );
  });
});
