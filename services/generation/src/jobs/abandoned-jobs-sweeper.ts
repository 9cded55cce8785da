import { runGenerationJob } from '@likeness/contracts';
import {
  APP_CONFIG,
  NATS_CONNECTION,
  NATS_SETTINGS,
  type NatsSettings,
  Periodic,
  isJobQueued,
  queryRows,
} from '@likeness/nest-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type GenerationConfig, staleAfterMs } from '../generation.config.js';
import { FailureReasons } from './failure-reasons.js';
import { JobTransitions } from './job-transitions.js';

const BATCH = 100;

/**
 * The safety net under the queue: a job still pending long after every attempt could have run,
 * whose message is no longer in the queue (lost with a purged stream, or expired), fails, and
 * billing gives its credits back. A job still waiting in a backlog, however long, is left to
 * its worker. One API replica sweeps at a time.
 */
@Injectable()
export class AbandonedJobsSweeper {
  private readonly logger = new Logger(AbandonedJobsSweeper.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    private readonly transitions: JobTransitions,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {}

  /** Fails the abandoned jobs; returns how many. */
  @Periodic((config: GenerationConfig) => ({ everyMs: config.SWEEP_INTERVAL_MS, lock: 'generation.abandoned-jobs' }))
  async sweep(): Promise<number> {
    const stale = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `SELECT id FROM generation.generation_jobs
       WHERE status = 'pending' AND created_at < now() - make_interval(secs => $1)
       ORDER BY created_at LIMIT ${BATCH}`,
      [staleAfterMs(this.config) / 1000],
    );
    let failed = 0;
    const jsm = stale.length > 0 ? await jetstreamManager(this.nats) : undefined;
    for (const { id } of stale) {
      if (jsm && (await isJobQueued(jsm, this.settings, runGenerationJob, id))) continue;
      if (await this.transitions.fail(id, { cause: 'abandoned', reason: FailureReasons.abandoned })) failed += 1;
    }
    if (failed > 0) this.logger.warn(`Failed ${failed} abandoned generation job(s); their credits go back`);
    return failed;
  }
}
