import { ConfigError, loadConfig } from '@likeness/nest-kit';
import { authConfigSchema } from './auth.config.js';

const base = { DATABASE_URL: 'postgres://localhost/likeness', JWT_SECRET: 'x'.repeat(32) };

describe('authConfigSchema', () => {
  it('should keep the per-address login limit below the per-account one by default', () => {
    expect(loadConfig(authConfigSchema, base)).toMatchObject({
      LOGIN_LIMIT_PER_ACCOUNT: 10,
      LOGIN_LIMIT_PER_IP_AND_ACCOUNT: 5,
      RATE_LIMIT_WINDOW_SECONDS: 600,
      REFRESH_ROTATION_GRACE_SECONDS: 30,
    });
    expect(loadConfig(authConfigSchema, { ...base, LOGIN_LIMIT_PER_ACCOUNT: '3' })).toMatchObject({
      LOGIN_LIMIT_PER_IP_AND_ACCOUNT: 1,
    });
  });

  it('should refuse a per-address limit that would let one address lock an account', () => {
    expect(() =>
      loadConfig(authConfigSchema, { ...base, LOGIN_LIMIT_PER_ACCOUNT: '10', LOGIN_LIMIT_PER_IP_AND_ACCOUNT: '10' }),
    ).toThrow(ConfigError);
  });

  it('should bound password hashing by default', () => {
    const config = loadConfig(authConfigSchema, base);
    expect(config.PASSWORD_HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(config.PASSWORD_HASH_CONCURRENCY).toBeLessThanOrEqual(4);
    expect(config.PASSWORD_HASH_QUEUE).toBe(64);
  });

  it('should refuse to start in production with mail going nowhere, or links going nowhere', () => {
    const production = { ...base, NODE_ENV: 'production' };
    expect(() => loadConfig(authConfigSchema, production)).toThrow(/SMTP_URL[\s\S]*PUBLIC_URL/);
    expect(
      loadConfig(authConfigSchema, { ...production, SMTP_URL: 'smtp://mail:587', PUBLIC_URL: 'https://x.example' }),
    ).toMatchObject({ SMTP_URL: 'smtp://mail:587', PASSWORD_RESET_LIMIT_PER_ADDRESS: 5, MAIL_MAX_ATTEMPTS: 12 });
    expect(() =>
      loadConfig(authConfigSchema, { ...production, MAIL_PROVIDER: 'mailbox', PUBLIC_URL: 'https://x.example' }),
    ).not.toThrow();
  });
});
