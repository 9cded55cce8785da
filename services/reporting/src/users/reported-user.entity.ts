import type { Role } from '@likeness/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Reporting's own copy of an account, built from UserRegistered for the admin views. */
@Entity({ name: 'users' })
export class ReportedUser {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'users_pkey' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  username!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Column({ name: 'registered_at', type: 'timestamptz' })
  registeredAt!: Date;
}
