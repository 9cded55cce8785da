import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One side of a credit movement. Every movement is two entries with one idempotency key: the
 * user's account (`user:<id>`) and a system account (`system:sales`, `system:usage`...), summing
 * to zero. Entries are never updated or deleted; the key makes a movement happen at most once.
 */
@Entity({ name: 'ledger_entries' })
@Index('ledger_entries_key_account_key', ['idempotencyKey', 'account'], { unique: true })
@Index('ledger_entries_account_idx', ['account'])
@Check('ledger_entries_amount_check', '"amount" <> 0')
export class LedgerEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'ledger_entries_pkey' })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  account!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 200 })
  idempotencyKey!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
