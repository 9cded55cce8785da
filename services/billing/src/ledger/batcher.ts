/**
 * Group commit: requests that arrive while batches are running wait for the next one, and one
 * call serves them all. `run` answers each input with a value or an Error, in input order; a
 * failure of the whole call fails every request of that batch. Up to `concurrency` batches run
 * at once (the ledger locks accounts in user order, so batches cannot deadlock each other).
 */
export class Batcher<Input, Output> {
  private queue: { input: Input; resolve: (value: Output) => void; reject: (error: unknown) => void }[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly run: (inputs: Input[]) => Promise<(Output | Error)[]>,
    private readonly options: { maxBatch: number; concurrency: number } = { maxBatch: 64, concurrency: 4 },
  ) {}

  submit(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.next();
    });
  }

  /** Resolves when no batch is running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private next(): void {
    while (this.running.size < this.options.concurrency && this.queue.length > 0) {
      // Spread the waiting requests over the free slots.
      const free = this.options.concurrency - this.running.size;
      const batch = this.queue.splice(0, Math.min(this.options.maxBatch, Math.ceil(this.queue.length / free)));
      const running: Promise<void> = this.run(batch.map((item) => item.input))
        .then(
          (results) =>
            batch.forEach((item, index) => {
              const result = results[index];
              if (result instanceof Error) item.reject(result);
              else item.resolve(result as Output);
            }),
          (error: unknown) => batch.forEach((item) => item.reject(error)),
        )
        .finally(() => {
          this.running.delete(running);
          this.next();
        });
      this.running.add(running);
    }
  }
}
