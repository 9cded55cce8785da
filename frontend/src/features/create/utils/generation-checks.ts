import { GENERATION_COST } from '@likeness/contracts';

export interface CheckProblem {
  title: string;
  description: string;
}

/** SPEC §5 and §8, with DESIGN §5 (a run costs 5 credits and needs 5: button and pre-check agree). */
export const generationMessages = {
  authRequired: { title: 'Authentication required', description: 'Please log in to generate avatars.' },
  insufficientCredits: {
    title: 'Insufficient credits',
    description: `You need at least ${GENERATION_COST} credits to generate an avatar. Please purchase more credits.`,
  },
  modelRequired: { title: 'Model required', description: 'Please select a custom model first.' },
  promptRequired: {
    title: 'Prompt required',
    description: 'Please enter a description of how you want your avatar to look.',
  },
  lowCreditsWarning: `You need ${GENERATION_COST} credits to generate avatars.`,
  startFailed: 'There was an error generating your avatar. Please try again.',
  jobFailed: 'There was an issue generating your avatar. Please try again.',
} as const;

/** SPEC §5: the checks before a generation is sent, in their order; the first that fails, or null. */
export function generationPreCheck({
  signedIn,
  credits,
  modelId,
  prompt,
}: {
  signedIn: boolean;
  credits: number;
  modelId: number | null;
  prompt: string;
}): CheckProblem | null {
  if (!signedIn) return generationMessages.authRequired;
  if (credits < GENERATION_COST) return generationMessages.insufficientCredits;
  if (modelId === null) return generationMessages.modelRequired;
  if (!prompt.trim()) return generationMessages.promptRequired;
  return null;
}
