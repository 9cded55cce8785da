import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An event a consumer has handled; written in the handler's transaction, so a redelivery is a no-op. */
@Entity({ name: 'inbox' })
export class InboxMessage {
  @PrimaryColumn({ name: 'event_id', type: 'uuid', primaryKeyConstraintName: 'inbox_pkey' })
  eventId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'inbox_pkey' })
  consumer!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
