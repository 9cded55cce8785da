import { FailureStreak, backoffDelay } from './backoff.js';

describe(backoffDelay.name, () => {
  it('should double from the initial delay up to the cap', () => {
    const policy = { initialMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 10].map((attempt) => backoffDelay(policy, attempt))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('should draw at most the jitter fraction off each delay', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelay({ initialMs: 1_000, maxMs: 1_000, jitter: 0.25 }, 1));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(750);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1_000);
    expect(new Set(delays).size).toBeGreaterThan(1);
  });
});

describe(FailureStreak.name, () => {
  it('should log the first failure and every 20th, and say when it recovers', () => {
    const sut = new FailureStreak({ initialMs: 10, maxMs: 40 });
    const logged: number[] = [];
    const waits: number[] = [];
    for (let failure = 1; failure <= 40; failure += 1) {
      waits.push(sut.fail());
      if (sut.worthLogging) logged.push(sut.failures);
    }
    expect(logged).toEqual([1, 20, 40]);
    expect(waits.slice(0, 4)).toEqual([10, 20, 40, 40]);
    expect(sut.reset()).toBe(true);
    expect(sut.reset()).toBe(false);
    expect(sut.fail()).toBe(10);
  });
});
