import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type QueryRunner } from 'typeorm';
import type { TrainingConfig } from '../training.config.js';

/** The first key of the two-key advisory locks on models. */
const LEASE_SPACE = `hashtext('training.custom_models')`;

/**
 * Who is driving a model out of 'pending' right now: a transaction-level advisory lock on a
 * connection of its own, held for the whole start. A crash drops the connection and with it the
 * lease, so the reconciler can tell a start in progress (leased) from one that died (free)
 * without guessing from timestamps.
 *
 * A lease keeps a pooled connection while its start needs others for its own writes, so at most
 * half the pool is leased at once; further starts wait their turn rather than drain the pool.
 */
@Injectable()
export class ModelLeases {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: TrainingConfig,
  ) {
    this.limit = Math.max(1, Math.floor((config.DATABASE_POOL_SIZE - 1) / 2));
  }

  /** Runs `work` holding the model's lease, waiting for it if someone else holds it. */
  async hold<T>(modelId: number, work: () => Promise<T>): Promise<T> {
    const outcome = await this.run(modelId, true, work);
    return (outcome as { value: T }).value;
  }

  /** Runs `work` holding the model's lease when nobody else holds it; says whether it did. */
  async holdIfFree(modelId: number, work: () => Promise<void>): Promise<boolean> {
    return (await this.run(modelId, false, work)) !== undefined;
  }

  private async run<T>(modelId: number, wait: boolean, work: () => Promise<T>): Promise<{ value: T } | undefined> {
    await this.slot();
    try {
      const runner = this.dataSource.createQueryRunner();
      try {
        await runner.connect();
        await runner.startTransaction();
        const [row] = (await runner.query(
          wait
            ? `SELECT pg_advisory_xact_lock(${LEASE_SPACE}, $1), true AS locked`
            : `SELECT pg_try_advisory_xact_lock(${LEASE_SPACE}, $1) AS locked`,
          [modelId],
        )) as { locked: boolean }[];
        if (!row?.locked) return undefined;
        return { value: await work() };
      } finally {
        await end(runner);
      }
    } finally {
      this.release();
    }
  }

  private async slot(): Promise<void> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The slot passes straight to the next in line, or is given back. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** Ends the lease: the transaction, and with it the lock, then the connection. */
async function end(runner: QueryRunner): Promise<void> {
  try {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
  } finally {
    await runner.release();
  }
}
