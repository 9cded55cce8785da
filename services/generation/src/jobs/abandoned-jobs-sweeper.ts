import { APP_CONFIG, queryRows } from '@likeness/nest-kit';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type GenerationConfig, staleAfterMs } from '../generation.config.js';
import { FailureReasons } from './failure-reasons.js';
import { JobTransitions } from './job-transitions.js';

const BATCH = 100;

/**
 * The safety net under the queue: a job still pending long after every attempt could have run
 * (its message lost with a purged stream, or its last delivery died too) fails, and billing
 * gives its credits back. One API replica sweeps at a time (an advisory lock).
 */
@Injectable()
export class AbandonedJobsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AbandonedJobsSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    private readonly transitions: JobTransitions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((error: Error) => {
          this.logger.warn(`Sweeping abandoned jobs failed: ${error.message}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, this.config.SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Fails the abandoned jobs; returns how many. */
  sweep(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        manager,
        `SELECT pg_try_advisory_xact_lock(hashtext('generation.abandoned-jobs-sweeper')) AS locked`,
        [],
      );
      if (!lock?.locked) return 0;
      const stale = await queryRows<{ id: string }>(
        manager,
        `SELECT id FROM generation.generation_jobs
         WHERE status = 'pending' AND created_at < now() - make_interval(secs => $1)
         ORDER BY created_at LIMIT ${BATCH}`,
        [staleAfterMs(this.config) / 1000],
      );
      let failed = 0;
      for (const { id } of stale) {
        if (await this.transitions.fail(id, FailureReasons.abandoned, manager)) failed += 1;
      }
      if (failed > 0) this.logger.warn(`Failed ${failed} abandoned generation job(s); their credits go back`);
      return failed;
    });
  }
}
