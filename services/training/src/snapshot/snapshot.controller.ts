import { type RpcRequest, TrainingRpc } from '@likeness/contracts';
import { RpcHandler, snapshotPage } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

interface ModelRow {
  id: number;
  user_id: number;
  model_name: string;
  status: 'training' | 'completed' | 'failed';
  failure_reason: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** The models whose training started, for reporting's rebuild. */
@Controller()
export class SnapshotController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @RpcHandler(TrainingRpc.snapshotModels)
  models(request: RpcRequest<typeof TrainingRpc.snapshotModels>) {
    return snapshotPage(
      this.dataSource.manager,
      request,
      `SELECT id, user_id, model_name, status, failure_reason, started_at, finished_at FROM training.custom_models
       WHERE status IN ('training', 'completed', 'failed') AND ($1::integer IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      (row: ModelRow) => ({
        modelId: row.id,
        userId: row.user_id,
        modelName: row.model_name,
        status: row.status,
        failureReason: row.status === 'failed' ? row.failure_reason : null,
        startedAt: row.started_at?.toISOString() ?? null,
        finishedAt: row.finished_at?.toISOString() ?? null,
      }),
      (item) => item.modelId,
    );
  }
}
