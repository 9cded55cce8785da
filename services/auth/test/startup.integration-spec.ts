import { fileURLToPath } from 'node:url';
import { runBuiltApp } from '@likeness/testing';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('auth start-up', () => {
  it('should refuse to start with a bad environment and list everything that is wrong', () => {
    const result = runBuiltApp(main, {
      DATABASE_URL: 'mysql://localhost/likeness',
      JWT_SECRET: 'too-short',
      HTTP_PORT: 'eighty',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(result.stderr).toContain('JWT_SECRET: must be at least 32 characters');
    expect(result.stderr).toMatch(/HTTP_PORT: /);
  });

  it('should refuse to start in production without a mail server or the public origin, saying what to set', () => {
    const result = runBuiltApp(main, {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://127.0.0.1:1/likeness',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('SMTP_URL: in production, mail needs SMTP_URL; set MAIL_PROVIDER=mailbox');
    expect(result.stderr).toContain('PUBLIC_URL: in production, set PUBLIC_URL');
  });
});
