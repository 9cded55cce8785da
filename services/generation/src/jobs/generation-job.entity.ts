import type { GenerationJobStatus } from '@likeness/contracts';
import type { ProviderKind } from '@likeness/inference';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A run of 1-4 images with a person's model (SPEC.md §3 generation_jobs) and the saga that pays
 * for it: the billing hold it spends and the provider's prediction. Its status only moves
 * forward: pending → completed | failed.
 */
@Entity({ name: 'generation_jobs' })
@Index('generation_jobs_user_created_idx', ['userId', 'createdAt'])
@Index('generation_jobs_pending_created_idx', ['createdAt'], { where: `"status" = 'pending'` })
@Index('generation_jobs_hold_reference_key', ['holdReference'], { unique: true })
@Check('generation_jobs_status_check', `"status" IN ('pending', 'completed', 'failed')`)
@Check('generation_jobs_num_outputs_check', `"num_outputs" BETWEEN 1 AND 4`)
@Check('generation_jobs_provider_check', `"provider" IN ('replicate', 'local')`)
export class GenerationJob {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'generation_jobs_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'custom_model_id', type: 'integer' })
  customModelId!: number;

  /** SPEC.md §3 lists it as required; the flow is model-based, so it stays empty (DESIGN.md §5). */
  @Column({ name: 'uploaded_image_id', type: 'integer', nullable: true })
  uploadedImageId!: number | null;

  @Column({ name: 'prompt_text', type: 'text' })
  promptText!: string;

  @Column({ name: 'num_outputs', type: 'smallint' })
  numOutputs!: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: GenerationJobStatus;

  /** SPEC.md §3 modelType: the kind of model that makes the images. */
  @Column({ name: 'model_type', type: 'varchar', length: 32, default: 'flux-lora' })
  modelType!: string;

  /** Who makes the images; a job keeps its provider even if the configuration changes. */
  @Column({ type: 'varchar', length: 16 })
  provider!: ProviderKind;

  /** The trained model's version the prediction runs (Replicate: owner/name:version). */
  @Column({ name: 'model_version', type: 'text' })
  modelVersion!: string;

  @Column({ name: 'hold_reference', type: 'varchar', length: 200 })
  holdReference!: string;

  /** SPEC.md §3 "inference-provider job id": the prediction, kept so a retry adopts it. */
  @Column({ name: 'prediction_id', type: 'text', nullable: true })
  predictionId!: string | null;

  /** `{ avatarIds }`: set empty when a run starts keeping its images, one id added as each is kept, all of them once completed. */
  @Column({ type: 'jsonb', nullable: true })
  results!: { avatarIds: number[] } | null;

  /** How the images are made beyond the prompt: what they should avoid. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings!: { negativePrompt?: string };

  /** Deliveries a worker has started. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
