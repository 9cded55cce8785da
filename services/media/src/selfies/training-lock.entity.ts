import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UploadedImage } from './uploaded-image.entity.js';

/**
 * A selfie in the training set of a model: it cannot be deleted until the training ends and
 * the model releases it. One row per (selfie, model), so two trainings may share a selfie and
 * releasing one leaves the other's lock in place. The foreign key makes the database refuse
 * to delete a locked selfie, whatever the code does.
 */
@Entity({ name: 'training_locks' })
@Index('training_locks_model_idx', ['modelId'])
export class TrainingLock {
  @PrimaryColumn({ name: 'uploaded_image_id', type: 'integer', primaryKeyConstraintName: 'training_locks_pkey' })
  uploadedImageId!: number;

  @PrimaryColumn({ name: 'model_id', type: 'integer', primaryKeyConstraintName: 'training_locks_pkey' })
  modelId!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => UploadedImage, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'uploaded_image_id', foreignKeyConstraintName: 'training_locks_uploaded_image_fkey' })
  uploadedImage?: UploadedImage;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
