import { ConcurrencyLimit } from './concurrency-limit.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe(ConcurrencyLimit.name, () => {
  it('should run at most the limit at once, the rest in arrival order', async () => {
    const sut = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const results = Array.from({ length: 5 }, (_, index) =>
      sut.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return index;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    while (releases.length > 0 || started.length < 5) {
      releases.shift()?.();
      await tick();
    }
    await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('should give the slot back when a task fails', async () => {
    const sut = new ConcurrencyLimit(1);
    await expect(sut.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sut.run(async () => 'next')).resolves.toBe('next');
  });
});
