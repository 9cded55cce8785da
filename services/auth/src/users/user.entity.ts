import type { Role } from '@likeness/contracts';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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
}
