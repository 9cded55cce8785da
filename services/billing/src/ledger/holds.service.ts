import type { HoldStatus } from '@likeness/contracts';
import { APP_CONFIG, Periodic } from '@likeness/nest-kit';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BillingConfig } from '../billing.config.js';
import { Batcher } from './batcher.js';
import { CreditLedger, type HoldRequest, HoldRaceError, type ReserveResult } from './credit-ledger.js';

/** Reserve, capture and release; and the sweeper that releases holds nobody resolved in time. */
@Injectable()
export class HoldsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(HoldsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: BillingConfig,
    private readonly ledger: CreditLedger,
  ) {
    // Concurrent reserves, and captures, share one transaction per batch (group commit).
    const batching = { maxBatch: 64, concurrency: config.LEDGER_BATCH_CONCURRENCY };
    this.reserves = new Batcher<HoldRequest, ReserveResult>(
      (requests) =>
        this.withRetryOnRace(() => dataSource.transaction((manager) => ledger.reserveMany(manager, requests))),
      batching,
    );
    this.captures = new Batcher<string, HoldStatus>(
      (references) => dataSource.transaction((manager) => ledger.captureMany(manager, references)),
      batching,
    );
  }

  private readonly reserves: Batcher<HoldRequest, ReserveResult>;
  private readonly captures: Batcher<string, HoldStatus>;

  async reserve(request: { userId: number; amount: number; reference: string; expiresInSeconds?: number | undefined }) {
    const expiresAt = new Date(Date.now() + (request.expiresInSeconds ?? this.config.HOLD_TTL_SECONDS) * 1000);
    const result = await this.reserves.submit({
      userId: request.userId,
      amount: request.amount,
      reference: request.reference,
      expiresAt,
    });
    return { reference: request.reference, ...result };
  }

  capture(reference: string): Promise<HoldStatus> {
    return this.captures.submit(reference);
  }

  release(reference: string): Promise<HoldStatus> {
    return this.dataSource.transaction((manager) => this.ledger.release(manager, reference));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.reserves.idle(), this.captures.idle()]);
  }

  private async withRetryOnRace<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof HoldRaceError)) throw error;
      return work();
    }
  }

  /** Releases every hold past its expiry; returns how many. Releases are conditional, so no lock is needed. */
  @Periodic((config: BillingConfig) => ({ everyMs: config.HOLD_SWEEP_INTERVAL_MS }))
  async releaseExpired(): Promise<number> {
    const expired = await this.dataSource.query<{ reference: string }[]>(
      `SELECT reference FROM billing.holds WHERE status = 'held' AND expires_at < now() ORDER BY expires_at LIMIT 500`,
    );
    let released = 0;
    for (const { reference } of expired) {
      if ((await this.release(reference)) === 'released') released += 1;
    }
    if (released > 0) this.logger.warn(`Released ${released} expired hold(s) nobody resolved`);
    return released;
  }
}
