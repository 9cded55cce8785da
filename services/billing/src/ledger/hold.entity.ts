import type { HoldStatus } from '@likeness/contracts';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Credits reserved for a job (`generation:<jobId>`); resolved once, by capture or release. */
@Entity({ name: 'holds' })
@Index('holds_reference_key', ['reference'], { unique: true })
/** A user's holds, for their credit history. */
@Index('holds_user_idx', ['userId'])
@Index('holds_open_expiry_idx', ['expiresAt'], { where: `"status" = 'held'` })
@Check('holds_amount_check', '"amount" > 0')
@Check('holds_status_check', `"status" IN ('held', 'captured', 'released')`)
export class Hold {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'holds_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 200 })
  reference!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'varchar', length: 16, default: 'held' })
  status!: HoldStatus;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
