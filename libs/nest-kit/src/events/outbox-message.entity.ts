import type { EventEnvelope } from '@likeness/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event waiting to be published, written in the same transaction as the change it announces. */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['createdAt'], { where: '"published_at" IS NULL' })
export class OutboxMessage {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'outbox_pkey' })
  id!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  envelope!: EventEnvelope;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
