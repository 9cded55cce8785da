import type { PaymentProviderKind } from '@likeness/contracts';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded' | 'disputed';

/** A purchase of a package. Its credits are granted once, when the provider says it succeeded. */
@Entity({ name: 'payments' })
@Index('payments_provider_payment_id_key', ['providerPaymentId'], { unique: true })
@Index('payments_user_idx', ['userId'])
@Check('payments_status_check', `"status" IN ('pending', 'succeeded', 'failed', 'refunded', 'disputed')`)
@Check('payments_amount_check', '"amount_cents" > 0 AND "credits" > 0')
@Check('payments_refunded_cents_check', '"refunded_cents" >= 0 AND "refunded_cents" <= "amount_cents"')
@Check('payments_succeeded_at_check', `"status" IN ('pending', 'failed') OR "succeeded_at" IS NOT NULL`)
export class Payment {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'payments_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 16 })
  provider!: PaymentProviderKind;

  /** The provider's payment intent id; null only until the provider answered. */
  @Column({ name: 'provider_payment_id', type: 'varchar', length: 255, nullable: true })
  providerPaymentId!: string | null;

  @Column({ name: 'package_id', type: 'varchar', length: 32 })
  packageId!: string;

  @Column({ name: 'amount_cents', type: 'integer' })
  amountCents!: number;

  @Column({ type: 'integer' })
  credits!: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: PaymentStatus;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  /** Refunds and disputes: credits taken back, and credits owed that the balance could not cover. */
  @Column({ name: 'credits_reversed', type: 'integer', default: 0 })
  creditsReversed!: number;

  @Column({ name: 'credits_unrecovered', type: 'integer', default: 0 })
  creditsUnrecovered!: number;

  /** Cents refunded or disputed so far (the largest amount the provider named, at most the payment's). */
  @Column({ name: 'refunded_cents', type: 'integer', default: 0 })
  refundedCents!: number;

  /** When the credits were granted: the PaymentSucceeded's time, to the millisecond. */
  @Column({ name: 'succeeded_at', type: 'timestamptz', nullable: true })
  succeededAt!: Date | null;

  /** When a refund or dispute last changed it: the latest PaymentRefunded's time. */
  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
