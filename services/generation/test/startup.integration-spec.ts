import { fileURLToPath } from 'node:url';
import { runBuiltApp } from '@likeness/testing';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('generation start-up', () => {
  it.each(['api', 'worker'])('should refuse to start the %s role in production without Replicate', (role) => {
    const result = runBuiltApp(main, {
      NODE_ENV: 'production',
      GENERATION_ROLE: role,
      DATABASE_URL: 'postgres://127.0.0.1:1/unused',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(
      'INFERENCE_PROVIDER: In production, generation needs REPLICATE_API_TOKEN; ' +
        'set INFERENCE_PROVIDER=local to run the local preview generator knowingly.',
    );
  });
});
