import type { CustomModel as CustomModelView } from '@likeness/contracts';
import type { CustomModel } from './custom-model.entity.js';

/** GET /api/custom-models item: what the person sees of a model. */
export function toModelView(model: CustomModel): CustomModelView {
  return {
    id: model.id,
    modelName: model.modelName,
    triggerWord: model.triggerWord,
    status: model.status,
    trainingType: model.trainingType,
    failureReason: model.failureReason,
    createdAt: model.createdAt.toISOString(),
  };
}

/** A `RETURNING *` row of training.custom_models, as the entity. */
export interface CustomModelRow {
  id: number;
  user_id: number;
  model_name: string;
  trigger_word: string;
  training_type: 'flux-lora';
  status: CustomModel['status'];
  provider: CustomModel['provider'];
  training_job_id: string | null;
  provider_model: string | null;
  version: string | null;
  hold_reference: string;
  reference_image_ids: number[];
  image_keys: string[];
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export function fromRow(row: CustomModelRow): CustomModel {
  return {
    id: row.id,
    userId: row.user_id,
    modelName: row.model_name,
    triggerWord: row.trigger_word,
    trainingType: row.training_type,
    status: row.status,
    provider: row.provider,
    trainingJobId: row.training_job_id,
    providerModel: row.provider_model,
    version: row.version,
    holdReference: row.hold_reference,
    referenceImageIds: row.reference_image_ids,
    imageKeys: row.image_keys,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
