import { fileURLToPath } from 'node:url';
import { runBuiltApp } from '@likeness/testing';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('training start-up', () => {
  it('should refuse to start in production without Replicate, and say what to set', () => {
    const result = runBuiltApp(main, { NODE_ENV: 'production', DATABASE_URL: 'postgres://127.0.0.1:1/unused' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(
      'INFERENCE_PROVIDER: In production, trainings need REPLICATE_API_TOKEN, REPLICATE_OWNER, ' +
        'REPLICATE_TRAINER_VERSION, REPLICATE_WEBHOOK_SECRET and PUBLIC_URL; ' +
        'set INFERENCE_PROVIDER=local to run the local provider knowingly.',
    );
  });
});
