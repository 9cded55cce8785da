import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A user's credits. `held` is reserved for running jobs; available = balance - held. The
 * database refuses a negative balance or more held than owned, whatever the code does.
 */
@Entity({ name: 'accounts' })
@Check('accounts_balance_check', '"balance" >= 0')
@Check('accounts_held_check', '"held" >= 0 AND "held" <= "balance"')
export class Account {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'accounts_pkey' })
  userId!: number;

  @Column({ type: 'integer', default: 0 })
  balance!: number;

  @Column({ type: 'integer', default: 0 })
  held!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /**
   * When the balance last changed: its newest CreditsChanged event's occurredAt, strictly later
   * than the previous one's (reporting keeps the balance of the newest).
   */
  @Column({ name: 'balance_changed_at', type: 'timestamptz', default: () => "date_trunc('milliseconds', now())" })
  balanceChangedAt!: Date;

  /**
   * Set when its owner deleted their account: it holds nothing more and gets no welcome credits;
   * its ledger entries and payments stay for accounting (docs/data-retention.md).
   */
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;
}
