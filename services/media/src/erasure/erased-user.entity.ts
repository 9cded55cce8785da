import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A deleted user whose media was erased: only the id, so nothing is stored for them again (an
 * upload or a generated image racing the deletion is refused), and when their objects were purged.
 */
@Entity({ name: 'erased_users' })
export class ErasedUser {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'erased_users_pkey' })
  userId!: number;

  @Column({ name: 'erased_at', type: 'timestamptz', default: () => 'now()' })
  erasedAt!: Date;

  /** Null until every object under `users/<userId>/` is deleted. */
  @Column({ name: 'objects_purged_at', type: 'timestamptz', nullable: true })
  objectsPurgedAt!: Date | null;
}
