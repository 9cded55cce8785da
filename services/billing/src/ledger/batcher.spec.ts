import { Batcher } from './batcher.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe(Batcher.name, () => {
  it('should serve the requests that wait behind a running batch together, in order', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sut = new Batcher<number, number>(
      async (inputs) => {
        batches.push(inputs);
        if (batches.length === 1) await gate;
        return inputs.map((input) => input * 10);
      },
      { maxBatch: 64, concurrency: 1 },
    );
    const first = sut.submit(1);
    const rest = [2, 3, 4].map((input) => sut.submit(input));
    await tick();
    release();
    await expect(first).resolves.toBe(10);
    await expect(Promise.all(rest)).resolves.toEqual([20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('should fail only the requests answered with an error, and all of a batch that failed', async () => {
    const sut = new Batcher<number, number>(async (inputs) => {
      if (inputs.includes(13)) throw new Error('the database went away');
      return inputs.map((input) => (input % 2 ? new Error(`odd ${input}`) : input));
    });
    await expect(sut.submit(2)).resolves.toBe(2);
    await expect(sut.submit(3)).rejects.toThrow('odd 3');
    await expect(sut.submit(13)).rejects.toThrow('the database went away');
  });

  it('should run at most `concurrency` batches at once and be idle when they end', async () => {
    let running = 0;
    let most = 0;
    const sut = new Batcher<number, number>(
      async (inputs) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return inputs;
      },
      { maxBatch: 2, concurrency: 3 },
    );
    const all = Promise.all(Array.from({ length: 20 }, (_, index) => sut.submit(index)));
    await sut.idle();
    await expect(all).resolves.toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(most).toBe(3);
  });
});
