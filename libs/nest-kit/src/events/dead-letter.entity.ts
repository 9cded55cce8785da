import type { EventEnvelope } from '@likeness/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An event a consumer could not handle after every attempt, parked rather than dropped (the
 * stream forgets it after 30 days; this table does not). `replay-dead-letters` publishes it
 * again; every consumer's inbox makes that harmless for those that already handled it.
 */
@Entity({ name: 'dead_letters' })
export class DeadLetter {
  @PrimaryColumn({ name: 'event_id', type: 'uuid', primaryKeyConstraintName: 'dead_letters_pkey' })
  eventId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'dead_letters_pkey' })
  consumer!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  envelope!: EventEnvelope;

  /** The last attempt's error, for the operator. */
  @Column({ type: 'text' })
  error!: string;

  @Column({ type: 'integer' })
  deliveries!: number;

  @Column({ name: 'parked_at', type: 'timestamptz', default: () => 'now()' })
  parkedAt!: Date;
}
