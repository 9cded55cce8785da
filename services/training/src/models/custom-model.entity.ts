import type { ModelStatus } from '@likeness/contracts';
import type { ProviderKind } from '@likeness/inference';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A person's model (SPEC.md §3 custom_models) and the saga that trains it: the billing hold it
 * spends, the selfies it locked, the provider's training. Its status only moves forward:
 * pending → training → completed | failed.
 */
@Entity({ name: 'custom_models' })
@Index('custom_models_user_created_idx', ['userId', 'createdAt'])
// One training at a time per person, whatever races: the database refuses a second.
@Index('custom_models_one_active_per_user_key', ['userId'], {
  unique: true,
  where: `"status" IN ('pending', 'training')`,
})
@Index('custom_models_hold_reference_key', ['holdReference'], { unique: true })
@Index('custom_models_training_job_id_idx', ['trainingJobId'])
@Check('custom_models_status_check', `"status" IN ('pending', 'training', 'completed', 'failed')`)
@Check('custom_models_provider_check', `"provider" IN ('replicate', 'local')`)
export class CustomModel {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'custom_models_pkey' })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'model_name', type: 'varchar', length: 30 })
  modelName!: string;

  @Column({ name: 'trigger_word', type: 'varchar', length: 20 })
  triggerWord!: string;

  @Column({ name: 'training_type', type: 'varchar', length: 16, default: 'flux-lora' })
  trainingType!: 'flux-lora';

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: ModelStatus;

  /** Who trains it; a model keeps its provider even if the configuration changes later. */
  @Column({ type: 'varchar', length: 16 })
  provider!: ProviderKind;

  @Column({ name: 'training_job_id', type: 'text', nullable: true })
  trainingJobId!: string | null;

  /** What the provider keeps for the model (Replicate: the destination model), deleted with it. */
  @Column({ name: 'provider_model', type: 'text', nullable: true })
  providerModel!: string | null;

  /** What a prediction runs once the training succeeded. */
  @Column({ type: 'text', nullable: true })
  version!: string | null;

  /** The billing hold of the training's credits: `training:<uuid>`. */
  @Column({ name: 'hold_reference', type: 'varchar', length: 200 })
  holdReference!: string;

  @Column({ name: 'reference_image_ids', type: 'integer', array: true })
  referenceImageIds!: number[];

  /** Storage keys of the locked selfies, as media answered the lock. */
  @Column({ name: 'image_keys', type: 'text', array: true, default: () => `'{}'` })
  imageKeys!: string[];

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
