import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type TestServiceEnvironment, createTestServiceEnvironment, runBuiltApp, waitFor } from '@likeness/testing';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('billing start-up', () => {
  it('should refuse to start in production without Stripe keys, and say what to set', () => {
    const result = runBuiltApp(main, { NODE_ENV: 'production', DATABASE_URL: 'postgres://127.0.0.1:1/unused' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(
      'PAYMENTS_PROVIDER: In production, payments need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and ' +
        'STRIPE_PUBLISHABLE_KEY; set PAYMENTS_PROVIDER=local to run the local test processor knowingly.',
    );
  });

  describe('with the local processor named', () => {
    let environment: TestServiceEnvironment;

    beforeAll(async () => {
      environment = await createTestServiceEnvironment('billing-startup');
    });

    afterAll(async () => {
      await environment?.database.drop();
    });

    it('should start in production and log that payments go through the local test processor', async () => {
      const env = {
        PATH: process.env['PATH'],
        ...environment.env,
        NODE_ENV: 'production',
        PAYMENTS_PROVIDER: 'local',
        LOG_LEVEL: 'info',
      };
      const migrated = spawnSync(process.execPath, [main, 'migrate'], { env, encoding: 'utf8', timeout: 30_000 });
      expect(migrated.status).toBe(0);

      const billing = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      billing.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      billing.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = once(billing, 'exit');
      try {
        await waitFor(async () => output.includes('billing service ready'), {
          timeoutMs: 30_000,
          what: 'billing to start',
        });
        expect(output).toContain('Payments go through the local test processor (PAYMENTS_PROVIDER=local)');
      } finally {
        billing.kill('SIGTERM');
        await exited;
      }
    });
  });
});
