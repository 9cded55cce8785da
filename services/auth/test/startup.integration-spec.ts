import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('auth start-up', () => {
  it('should refuse to start with a bad environment and list everything that is wrong', () => {
    const result = spawnSync(process.execPath, [main], {
      env: {
        PATH: process.env['PATH'],
        DATABASE_URL: 'mysql://localhost/likeness',
        JWT_SECRET: 'too-short',
        HTTP_PORT: 'eighty',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(result.stderr).toContain('JWT_SECRET: must be at least 32 characters');
    expect(result.stderr).toMatch(/HTTP_PORT: /);
  });
});
