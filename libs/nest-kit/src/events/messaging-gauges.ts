import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { eventMetrics } from '../health/metrics.js';
import { Periodic } from '../periodic/periodic.decorator.js';
import { DeadLetter } from './dead-letter.entity.js';
import { OutboxMessage } from './outbox-message.entity.js';

/** Keeps the outbox-lag and dead-letter gauges current, for dashboards and alerts. */
@Injectable()
export class MessagingGauges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Periodic({ everyMs: 15_000 })
  async refresh(): Promise<void> {
    const table = (entity: Function) =>
      this.dataSource
        .getMetadata(entity)
        .tablePath.split('.')
        .map((part) => `"${part}"`)
        .join('.');
    const [row] = (await this.dataSource.query(
      `SELECT
         (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) FROM ${table(OutboxMessage)} WHERE published_at IS NULL) AS oldest,
         (SELECT count(*) FROM ${table(DeadLetter)}) AS parked`,
    )) as { oldest: string; parked: string }[];
    eventMetrics.oldestPendingSeconds.set(Number(row?.oldest ?? 0));
    eventMetrics.deadLetters.set(Number(row?.parked ?? 0));
  }
}
