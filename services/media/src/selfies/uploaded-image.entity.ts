import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A selfie, re-encoded as JPEG under `users/<userId>/selfies/<uuid>.jpg` with a WebP
 * thumbnail beside it. Whether it is in use for a training is in `training_locks`.
 */
@Entity({ name: 'uploaded_images' })
@Index('uploaded_images_user_created_idx', ['userId', 'createdAt'])
@Index('uploaded_images_storage_key_key', ['storageKey'], { unique: true })
@Index('uploaded_images_thumbnail_key_key', ['thumbnailKey'], { unique: true })
export class UploadedImage {
  @PrimaryGeneratedColumn('increment', { primaryKeyConstraintName: 'uploaded_images_pkey' })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @Column({ name: 'thumbnail_key', type: 'text' })
  thumbnailKey!: string;

  /** As sent, sanitised (see sanitizeFilename); only ever shown, never part of a key. */
  @Column({ name: 'original_filename', type: 'text' })
  originalFilename!: string;

  @Column({ name: 'content_type', type: 'varchar', length: 64 })
  contentType!: string;

  @Column({ name: 'byte_size', type: 'integer' })
  byteSize!: number;

  @Column({ type: 'integer' })
  width!: number;

  @Column({ type: 'integer' })
  height!: number;

  /** Set once the selfie has been part of a training set (SPEC.md §3). */
  @Column({ name: 'is_reference_image', type: 'boolean', default: false })
  isReferenceImage!: boolean;

  /** The model most recently trained on it (SPEC.md §3). */
  @Column({ name: 'custom_model_id', type: 'integer', nullable: true })
  customModelId!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
