import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A deleted user, by id only: their row is gone from the read model, and a UserRegistered heard
 * of after the deletion (the two events race) does not bring it back.
 */
@Entity({ name: 'deleted_users' })
export class DeletedUser {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'deleted_users_pkey' })
  userId!: number;

  @Column({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date;
}
