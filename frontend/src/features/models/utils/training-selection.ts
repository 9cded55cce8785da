import { SELFIE_LIMITS } from '@likeness/contracts';

/** SPEC §5 (Training): a model trains on 12-20 of the user's selfies. */
export const TRAINING_IMAGES = { min: 12, max: SELFIE_LIMITS.selectAll } as const;

export type SelectionStatus = 'too-few' | 'too-many' | 'ready';

export function selectionStatus(count: number): SelectionStatus {
  if (count < TRAINING_IMAGES.min) return 'too-few';
  if (count > TRAINING_IMAGES.max) return 'too-many';
  return 'ready';
}

function images(count: number): string {
  return count === 1 ? 'image' : 'images';
}

/** SPEC §5: the picker's guidance under "Image Selection (n/20)". */
export function selectionGuidance(count: number): string {
  switch (selectionStatus(count)) {
    case 'too-few': {
      const missing = TRAINING_IMAGES.min - count;
      return `Select ${missing} more ${images(missing)} (need ${TRAINING_IMAGES.min}-${TRAINING_IMAGES.max} total)`;
    }
    case 'too-many': {
      const extra = count - TRAINING_IMAGES.max;
      return `Remove ${extra} ${images(extra)} (maximum ${TRAINING_IMAGES.max} allowed)`;
    }
    case 'ready':
      return `Perfect! ${count} images selected for optimal training`;
  }
}
