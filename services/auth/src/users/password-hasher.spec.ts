import type { AuthConfig } from '../auth.config.js';
import { PasswordHasher, TOO_MANY_SIGN_INS } from './password-hasher.js';

const hasher = (concurrency: number, queue: number) =>
  new PasswordHasher({ PASSWORD_HASH_CONCURRENCY: concurrency, PASSWORD_HASH_QUEUE: queue } as AuthConfig);

describe(PasswordHasher.name, () => {
  it('should refuse at once past its bound, saying when to retry, and finish the admitted ones', async () => {
    const sut = hasher(1, 2);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => sut.hash('secret-password')));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(refusals).toHaveLength(3);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ code: 'COMMON.SERVICE_UNAVAILABLE', status: 503, message: TOO_MANY_SIGN_INS });
      expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
  });

  it('should take new work once the queue has drained', async () => {
    const sut = hasher(1, 0);
    const hash = await sut.hash('secret-password');
    await expect(sut.verify(hash, 'secret-password')).resolves.toBe(true);
    await expect(sut.verify(hash, 'wrong-password')).resolves.toBe(false);
    await expect(sut.verify(undefined, 'secret-password')).resolves.toBe(false);
  });
});
