import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An intent of the local test processor (single-machine mode, no Stripe account). */
@Entity({ name: 'local_payment_intents' })
@Index('local_payment_intents_idempotency_key', ['idempotencyKey'], { unique: true })
export class LocalPaymentIntent {
  /** `pi_local_<random>` */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'local_payment_intents_pkey' })
  id!: string;

  @Column({ name: 'client_secret', type: 'varchar', length: 128 })
  clientSecret!: string;

  /** Our payment id: creating twice for one payment returns the same intent. */
  @Column({ name: 'idempotency_key', type: 'varchar', length: 64 })
  idempotencyKey!: string;

  @Column({ name: 'amount_cents', type: 'integer' })
  amountCents!: number;

  @Column({ type: 'varchar', length: 3, default: 'usd' })
  currency!: string;

  @Column({ type: 'varchar', length: 32, default: 'requires_payment_method' })
  status!: 'requires_payment_method' | 'succeeded' | 'failed';

  @Column({ type: 'jsonb' })
  metadata!: Record<string, string>;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
