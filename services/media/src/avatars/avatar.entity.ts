import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A generated image kept for its owner, as WebP under `users/<userId>/avatars/<uuid>.webp`. */
@Entity({ name: 'avatars' })
@Index('avatars_user_created_idx', ['userId', 'createdAt'])
@Index('avatars_user_favourite_created_idx', ['userId', 'createdAt'], { where: 'favourite' })
@Index('avatars_storage_key_key', ['storageKey'], { unique: true })
@Index('avatars_thumbnail_key_key', ['thumbnailKey'], { unique: true })
@Index('avatars_share_token_key', ['shareToken'], { unique: true })
@Index('avatars_source_ref_key', ['sourceRef'], { unique: true })
export class Avatar {
  @PrimaryGeneratedColumn('increment', { primaryKeyConstraintName: 'avatars_pkey' })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'prompt_text', type: 'text' })
  promptText!: string;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @Column({ name: 'thumbnail_key', type: 'text' })
  thumbnailKey!: string;

  @Column({ name: 'custom_model_id', type: 'integer', nullable: true })
  customModelId!: number | null;

  /** The capability in the avatar's share link; it dies with the row. */
  @Column({ name: 'share_token', type: 'varchar', length: 64 })
  shareToken!: string;

  /** Who asked for it to be stored (`<jobId>:<index>`): the same ref stores one avatar. */
  @Column({ name: 'source_ref', type: 'varchar', length: 200 })
  sourceRef!: string;

  /** Starred by its owner. */
  @Column({ name: 'favourite', type: 'boolean', default: false })
  favourite!: boolean;

  /** Nullable as SPEC.md §3 has it: a missing date sorts as the oldest. */
  @Column({ name: 'created_at', type: 'timestamptz', nullable: true, default: () => 'now()' })
  createdAt!: Date | null;
}
