import { GenerationEvents } from '@likeness/contracts';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type JobOutcome, recordJobEnded } from '../generation-metrics.js';
import type { JobFailure } from './failure-reasons.js';

interface JobRow {
  id: string;
  user_id: number;
  custom_model_id: number;
  prompt_text: string;
  hold_reference: string;
  attempts: number;
  created_at: Date;
}

/**
 * The only writers of a job's outcome. Each move is one conditional UPDATE from 'pending', in
 * the same transaction as the event announcing it: however many workers, redeliveries and
 * sweeps race, a job ends once and billing hears of it once. The event's time is the
 * completed_at written on the row (reporting's rebuild reads that one). Each job's end is
 * counted here, once, whoever ended it (a worker, the sweeper).
 */
@Injectable()
export class JobTransitions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** pending → completed, with GenerationCompleted (billing captures the hold). False when it had already ended. */
  async complete(jobId: string, avatarIds: number[]): Promise<boolean> {
    const ended = await this.dataSource.transaction(async (manager) => {
      const finishedAt = new Date();
      const [row] = await queryRows<JobRow>(
        manager,
        `UPDATE generation.generation_jobs
         SET status = 'completed', results = $2, completed_at = $3, updated_at = $3
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [jobId, JSON.stringify({ avatarIds }), finishedAt],
      );
      if (!row) return undefined;
      await this.outbox.add(
        manager,
        GenerationEvents.GenerationCompleted,
        {
          jobId: row.id,
          userId: row.user_id,
          holdReference: row.hold_reference,
          customModelId: row.custom_model_id,
          promptText: row.prompt_text,
          avatarIds,
        },
        { occurredAt: finishedAt },
      );
      return { row, finishedAt };
    });
    return this.counted('completed', ended);
  }

  /** pending → failed, with GenerationFailed (billing releases the hold). False when it had already ended. */
  async fail(jobId: string, { cause, reason }: JobFailure): Promise<boolean> {
    const ended = await this.dataSource.transaction(async (manager) => {
      const finishedAt = new Date();
      const [row] = await queryRows<JobRow>(
        manager,
        `UPDATE generation.generation_jobs
         SET status = 'failed', failure_reason = $2, completed_at = $3, updated_at = $3
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [jobId, reason, finishedAt],
      );
      if (!row) return undefined;
      await this.outbox.add(
        manager,
        GenerationEvents.GenerationFailed,
        { jobId: row.id, userId: row.user_id, holdReference: row.hold_reference, reason },
        { occurredAt: finishedAt },
      );
      return { row, finishedAt };
    });
    return this.counted(cause, ended);
  }

  /** Counts a job's end once the move is committed: only the one move that happened counts. */
  private counted(outcome: JobOutcome, ended: { row: JobRow; finishedAt: Date } | undefined): boolean {
    if (!ended) return false;
    const { row, finishedAt } = ended;
    recordJobEnded(outcome, { createdAt: row.created_at, endedAt: finishedAt, attempts: row.attempts });
    return true;
  }
}
