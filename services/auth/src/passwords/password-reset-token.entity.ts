import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../users/user.entity.js';

/**
 * A password reset link's token, stored as its SHA-256 only: the token itself exists only in the
 * mail. Single use; `used_at` is also set on every other outstanding token of the user when one
 * is used or the password changes.
 */
@Entity({ name: 'password_reset_tokens' })
@Index('password_reset_tokens_user_idx', ['userId'])
export class PasswordResetToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'password_reset_tokens_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'password_reset_tokens_user_fkey' })
  user?: User;

  @Index('password_reset_tokens_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  /** The queued mail that made it: sent again after a failure, the mail carries a new token in its place. */
  @Index('password_reset_tokens_request_key', { unique: true })
  @Column({ name: 'request_id', type: 'uuid' })
  requestId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Used, or made useless by another token's use or a password change. */
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
