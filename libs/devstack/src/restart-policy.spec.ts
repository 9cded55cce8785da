import { CrashCounter, DEFAULT_RESTART_POLICY, formatDelay, restartDelay } from './restart-policy.js';

describe(restartDelay.name, () => {
  it('should wait 1 s, then twice as long for each crash in a row, never more than 30 s', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 20].map((crashes) => restartDelay(DEFAULT_RESTART_POLICY, crashes));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('should follow the policy it is given', () => {
    expect(restartDelay({ initialDelayMs: 100, maxDelayMs: 250, resetAfterMs: 1_000 }, 3)).toBe(250);
  });
});

describe(formatDelay.name, () => {
  it('should say a delay in seconds as the log shows it', () => {
    expect([1_000, 30_000, 500, 1_250].map(formatDelay)).toEqual(['1 s', '30 s', '0.5 s', '1.3 s']);
  });
});

describe(CrashCounter.name, () => {
  it('should wait longer for each crash in a row, and count every restart', () => {
    const sut = new CrashCounter(DEFAULT_RESTART_POLICY);
    expect([sut.crashed(5_000), sut.crashed(1_000), sut.crashed(59_000)]).toEqual([1_000, 2_000, 4_000]);
    expect(sut.total).toBe(3);
  });

  it('should start again from the first delay when the app stayed up long enough', () => {
    const sut = new CrashCounter(DEFAULT_RESTART_POLICY);
    for (let crash = 0; crash < 6; crash++) sut.crashed(100);
    expect(sut.crashed(100)).toBe(30_000);
    expect(sut.crashed(60_000)).toBe(1_000);
    expect(sut.crashed(100)).toBe(2_000);
    expect(sut.total).toBe(9);
  });
});
