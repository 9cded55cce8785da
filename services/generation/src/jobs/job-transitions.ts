import { GenerationEvents } from '@likeness/contracts';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

interface JobRow {
  id: string;
  user_id: number;
  custom_model_id: number;
  prompt_text: string;
  hold_reference: string;
}

/**
 * The only writers of a job's outcome. Each move is one conditional UPDATE from 'pending', in
 * the same transaction as the event announcing it: however many workers, redeliveries and
 * sweeps race, a job ends once and billing hears of it once. The event's time is the
 * completed_at written on the row (reporting's rebuild reads that one).
 */
@Injectable()
export class JobTransitions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** pending → completed, with GenerationCompleted (billing captures the hold). False when it had already ended. */
  complete(jobId: string, avatarIds: number[]): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const finishedAt = new Date();
      const [row] = await queryRows<JobRow>(
        manager,
        `UPDATE generation.generation_jobs
         SET status = 'completed', results = $2, completed_at = $3, updated_at = $3
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [jobId, JSON.stringify({ avatarIds }), finishedAt],
      );
      if (!row) return false;
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
      return true;
    });
  }

  /** pending → failed, with GenerationFailed (billing releases the hold). False when it had already ended. */
  async fail(jobId: string, reason: string, manager?: EntityManager): Promise<boolean> {
    if (!manager) return this.dataSource.transaction((inner) => this.fail(jobId, reason, inner));
    const finishedAt = new Date();
    const [row] = await queryRows<JobRow>(
      manager,
      `UPDATE generation.generation_jobs
       SET status = 'failed', failure_reason = $2, completed_at = $3, updated_at = $3
       WHERE id = $1 AND status = 'pending' RETURNING *`,
      [jobId, reason, finishedAt],
    );
    if (!row) return false;
    await this.outbox.add(
      manager,
      GenerationEvents.GenerationFailed,
      { jobId: row.id, userId: row.user_id, holdReference: row.hold_reference, reason },
      { occurredAt: finishedAt },
    );
    return true;
  }
}
