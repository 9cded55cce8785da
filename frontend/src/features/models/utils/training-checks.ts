import { TRAINING_COST } from '@likeness/contracts';
import { TRAINING_IMAGES } from './training-selection';

/** SPEC §5 with DESIGN §5 (training costs 30 credits everywhere). */
export const trainingMessages = {
  nameRequired: 'Please enter a model name',
  tooFewImages: `Please select at least ${TRAINING_IMAGES.min} reference images for optimal training`,
  tooManyImages: `Please select no more than ${TRAINING_IMAGES.max} reference images for optimal training`,
  insufficientCredits: `Insufficient credits. Model training requires ${TRAINING_COST} credits.`,
  lowCreditsWarning: `You need at least ${TRAINING_COST} credits to train a custom model`,
  startFailed: 'There was an error starting the model training. Please try again.',
} as const;

/** Why the selection cannot be trained on yet, as "Start Training" says beside it, or null. */
export function selectionBlocker(selectedCount: number): string | null {
  if (selectedCount < TRAINING_IMAGES.min) return `Select ${TRAINING_IMAGES.min} selfies (${selectedCount} selected)`;
  if (selectedCount > TRAINING_IMAGES.max) {
    return `Select at most ${TRAINING_IMAGES.max} selfies (${selectedCount} selected)`;
  }
  return null;
}

/** SPEC §5: the checks before a training is sent, in their order; the first that fails, or null. */
export function trainingPreCheck({
  modelName,
  selectedCount,
  credits,
}: {
  modelName: string;
  selectedCount: number;
  credits: number;
}): string | null {
  if (!modelName.trim()) return trainingMessages.nameRequired;
  if (selectedCount < TRAINING_IMAGES.min) return trainingMessages.tooFewImages;
  if (selectedCount > TRAINING_IMAGES.max) return trainingMessages.tooManyImages;
  if (credits < TRAINING_COST) return trainingMessages.insufficientCredits;
  return null;
}
