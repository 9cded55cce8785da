import type { Role } from '@likeness/contracts';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  IsNull,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity({ name: 'users' })
@Check('users_role_check', `"role" IN ('user', 'admin')`)
@Index('users_username_lower_key', { synchronize: false })
@Index('users_email_key', ['email'], { unique: true })
export class User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'users_pkey' })
  id!: number;

  /** Kept as typed; unique regardless of case (see the migration's functional index). */
  @Column({ type: 'varchar', length: 20 })
  username!: string;

  /** Stored lower-cased. */
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role!: Role;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /**
   * Set when the account was deleted: the row stays as a tombstone (username, e-mail and password
   * hash replaced, see tombstoneOf), found by no lookup and signed in to by nobody.
   */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

/** Lookups of accounts that exist: a deleted one is found by nothing. */
export const liveUser = { deletedAt: IsNull() } as const;

/**
 * What a deleted account's unique columns become: values registration refuses (`-` is no username
 * character, and an address has an `@`), so they never clash with a real username or e-mail and
 * the real ones are free again. The password hash is emptied: no password verifies against it.
 */
export function tombstoneOf(id: number): Pick<User, 'username' | 'email' | 'passwordHash'> {
  return { username: `deleted-${id}`, email: `deleted:${id}`, passwordHash: '' };
}
