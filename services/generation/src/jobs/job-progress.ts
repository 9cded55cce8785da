import { GenerationEvents, type GenerationJobStage } from '@likeness/contracts';
import { OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What a progress UPDATE returns of the row it moved. */
interface ProgressRow {
  user_id: number;
  results: { avatarIds: number[] } | null;
  /** Whether the stage the waiting screen showed before is the one it shows now. */
  unchanged?: boolean;
}

/**
 * The worker's writes of a pending job's progress (the stage of generation-job.view.ts and the
 * avatars kept so far), each in one transaction with the GenerationProgressed event that tells
 * the owner's open pages: the event is published exactly when the change is committed, and a
 * write that changed nothing (the job had ended, the avatar was already listed) tells nobody.
 */
@Injectable()
export class JobProgress {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * A delivery starts an attempt: it generates (again) before it keeps anything. Told unless the
   * job was generating already (an attempt that failed before keeping anything, tried again).
   */
  attemptStarted(jobId: string): Promise<void> {
    return this.move(
      jobId,
      `WITH before AS (
         SELECT id, attempts, results FROM generation.generation_jobs WHERE id = $1 AND status = 'pending' FOR UPDATE
       )
       UPDATE generation.generation_jobs AS job
       SET attempts = job.attempts + 1, results = NULL, updated_at = now()
       FROM before WHERE job.id = before.id
       RETURNING job.user_id, job.results, (before.attempts > 0 AND before.results IS NULL) AS unchanged`,
      [jobId],
    );
  }

  /** The prediction succeeded: its images are being kept, none yet. */
  savingStarted(jobId: string): Promise<void> {
    return this.move(
      jobId,
      `UPDATE generation.generation_jobs SET results = '{"avatarIds":[]}', updated_at = now()
       WHERE id = $1 AND status = 'pending' RETURNING user_id, results`,
      [jobId],
    );
  }

  /** One more avatar kept (the row lock orders concurrent additions, and their events with them). */
  avatarKept(jobId: string, avatarId: number): Promise<void> {
    return this.move(
      jobId,
      `UPDATE generation.generation_jobs
       SET results = jsonb_build_object('avatarIds', (results -> 'avatarIds') || to_jsonb($2::integer)), updated_at = now()
       WHERE id = $1 AND status = 'pending' AND results IS NOT NULL AND NOT (results -> 'avatarIds') @> to_jsonb($2::integer)
       RETURNING user_id, results`,
      [jobId, avatarId],
    );
  }

  private async move(jobId: string, sql: string, parameters: unknown[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [row] = await queryRows<ProgressRow>(manager, sql, parameters);
      if (!row || row.unchanged) return;
      const stage: GenerationJobStage = row.results ? 'saving' : 'generating';
      await this.outbox.add(manager, GenerationEvents.GenerationProgressed, {
        jobId,
        userId: row.user_id,
        stage,
        avatarIds: row.results?.avatarIds ?? [],
      });
    });
  }
}
