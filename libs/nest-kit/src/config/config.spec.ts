import { z } from 'zod';
import { ConfigError, checkNatsCredentials, envBoolean, envChoice, loadConfig, serviceConfigSchema } from './config.js';

describe(loadConfig.name, () => {
  it('should apply defaults to a minimal environment', () => {
    const config = loadConfig(serviceConfigSchema, { DATABASE_URL: 'postgres://localhost/likeness' });
    expect(config).toMatchObject({
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_NAMESPACE: '',
      HTTP_PORT: 0,
      LOG_LEVEL: 'info',
      JETSTREAM_REPLICAS: 1,
    });
    expect(config.EVENTS_MAX_BYTES).toBeUndefined();
  });

  it('should take the JetStream replicas a cluster can have, and nothing else', () => {
    const env = { DATABASE_URL: 'postgres://localhost/likeness', EVENTS_MAX_BYTES: '21474836480' };
    expect(loadConfig(serviceConfigSchema, { ...env, JETSTREAM_REPLICAS: '3' })).toMatchObject({
      JETSTREAM_REPLICAS: 3,
      EVENTS_MAX_BYTES: 21_474_836_480,
    });
    expect(() => loadConfig(serviceConfigSchema, { ...env, JETSTREAM_REPLICAS: '2' })).toThrow(
      'JETSTREAM_REPLICAS: must be 1, 3 or 5',
    );
  });

  it('should list every problem at once when the environment is bad', () => {
    const error = (() => {
      try {
        loadConfig(serviceConfigSchema, { DATABASE_URL: 'mysql://x', HTTP_PORT: '99999', LOG_LEVEL: 'loud' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        'DATABASE_URL: must be a postgres:// URL',
        expect.stringMatching(/^HTTP_PORT: /),
        expect.stringMatching(/^LOG_LEVEL: /),
      ]),
    );
    expect((error as Error).message).toContain('Invalid configuration');
  });

  it('should read booleans the way operators write them', () => {
    const schema = z.object({ FLAG: envBoolean(false) });
    expect(loadConfig(schema, { FLAG: 'true' }).FLAG).toBe(true);
    expect(loadConfig(schema, { FLAG: '0' }).FLAG).toBe(false);
    expect(loadConfig(schema, {}).FLAG).toBe(false);
    expect(() => loadConfig(schema, { FLAG: 'yes please' })).toThrow('FLAG: must be true or false');
  });

  it('should read a named choice, empty as unset, and name the choices when it is neither', () => {
    const schema = z.object({ PROVIDER: envChoice(['stripe', 'local']) });
    expect(loadConfig(schema, { PROVIDER: 'local' }).PROVIDER).toBe('local');
    expect(loadConfig(schema, { PROVIDER: '' }).PROVIDER).toBeUndefined();
    expect(loadConfig(schema, {}).PROVIDER).toBeUndefined();
    expect(() => loadConfig(schema, { PROVIDER: 'Stripe' })).toThrow('PROVIDER: must be stripe or local');
  });
});

describe(checkNatsCredentials.name, () => {
  const schema = serviceConfigSchema.superRefine(checkNatsCredentials);
  const env = { DATABASE_URL: 'postgres://localhost/likeness' };

  it('should send no credentials when neither is set, as a server without users expects', () => {
    const config = loadConfig(schema, env);
    expect([config.NATS_USER, config.NATS_PASSWORD]).toEqual([undefined, undefined]);
    expect(loadConfig(schema, { ...env, NATS_USER: '', NATS_PASSWORD: '' }).NATS_USER).toBeUndefined();
  });

  it('should take a user with its password', () => {
    expect(loadConfig(schema, { ...env, NATS_USER: 'generation-worker', NATS_PASSWORD: 'p' })).toMatchObject({
      NATS_USER: 'generation-worker',
      NATS_PASSWORD: 'p',
    });
  });

  it('should refuse one without the other, in words', () => {
    expect(() => loadConfig(schema, { ...env, NATS_USER: 'billing' })).toThrow(
      "NATS_PASSWORD: NATS_USER is set (billing) without NATS_PASSWORD: set the user's password, or neither",
    );
    expect(() => loadConfig(schema, { ...env, NATS_PASSWORD: 'p' })).toThrow(
      'NATS_USER: NATS_PASSWORD is set without NATS_USER: name the user it belongs to, or set neither',
    );
    expect(() => loadConfig(schema, { ...env, NATS_USER: 'Billing Service', NATS_PASSWORD: 'p' })).toThrow(
      'NATS_USER: may hold lower-case letters, digits and - only',
    );
  });
});
