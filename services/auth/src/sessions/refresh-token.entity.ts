import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../users/user.entity.js';

/**
 * A refresh token, stored as its SHA-256 only. Tokens of one login form a family; each use
 * rotates the token, and a rotated token used again revokes the whole family (theft).
 */
@Entity({ name: 'refresh_tokens' })
@Index('refresh_tokens_user_idx', ['userId'])
@Index('refresh_tokens_family_idx', ['familyId'])
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'refresh_tokens_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'refresh_tokens_user_fkey' })
  user?: User;

  @Index('refresh_tokens_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'family_id', type: 'uuid' })
  familyId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Set when the token was exchanged for a new one. */
  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt!: Date | null;

  /**
   * The token it was exchanged for, encrypted with a key derived from this token (which only its
   * holder has): a request that raced the rotation gets the same successor, not a second one.
   */
  @Column({ name: 'successor_sealed', type: 'text', nullable: true })
  successorSealed!: string | null;

  /** Set on logout or when the family was revoked. */
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
