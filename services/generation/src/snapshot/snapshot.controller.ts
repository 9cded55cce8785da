import { GenerationRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler, snapshotPage } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

interface JobRow {
  id: string;
  user_id: number;
  prompt_text: string;
  num_outputs: number;
  status: 'pending' | 'completed' | 'failed';
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** Every job, for reporting's rebuild. */
@Controller()
export class SnapshotController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @RpcHandler(GenerationRpc.snapshotJobs)
  jobs(request: RpcRequest<typeof GenerationRpc.snapshotJobs>) {
    return snapshotPage(
      this.dataSource.manager,
      request,
      `SELECT id, user_id, prompt_text, num_outputs, status, failure_reason, created_at, completed_at
       FROM generation.generation_jobs WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      (row: JobRow) => ({
        jobId: row.id,
        userId: row.user_id,
        promptText: row.prompt_text,
        numOutputs: row.num_outputs,
        status: row.status,
        failureReason: row.status === 'failed' ? row.failure_reason : null,
        createdAt: row.created_at.toISOString(),
        finishedAt: row.completed_at?.toISOString() ?? null,
      }),
      (item) => item.jobId,
    );
  }
}
