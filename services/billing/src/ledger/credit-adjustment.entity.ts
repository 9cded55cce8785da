import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An administrator's grant or deduction of a user's credits (POST /api/admin/users/{id}/credits).
 * The request id is the primary key: the same request, retried or sent twice at once, is
 * recorded once, and its ledger movement (`adjustment:<requestId>`) happens once. The row keeps
 * who made it and why (the user reads the reason in their history), and the balance it left,
 * which a retry answers with.
 */
@Entity({ name: 'credit_adjustments' })
@Index('credit_adjustments_user_idx', ['userId'])
@Check('credit_adjustments_delta_check', '"delta" <> 0')
export class CreditAdjustment {
  @PrimaryColumn({ name: 'request_id', type: 'uuid', primaryKeyConstraintName: 'credit_adjustments_pkey' })
  requestId!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  /** Positive grants, negative deducts. */
  @Column({ type: 'integer' })
  delta!: number;

  @Column({ type: 'varchar', length: 200 })
  reason!: string;

  /** The administrator who made it (the caller the RPC envelope named). */
  @Column({ name: 'admin_id', type: 'integer' })
  adminId!: number;

  /** The user's balance and spendable credits right after it. */
  @Column({ type: 'integer' })
  balance!: number;

  @Column({ type: 'integer' })
  available!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
