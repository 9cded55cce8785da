import { GENERATION_COST, TRAINING_COST, TRAINING_IMAGES } from '@likeness/contracts';
import { paths } from '@/config/paths';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';
import { isCompletedStatus, isTrainingStatus } from '@/lib/custom-models/model-status';

/** Where a new account stands on the way to its first avatar. */
export interface FirstRunFacts {
  credits: number;
  selfieCount: number;
  models: readonly ListedModel[];
  avatarCount: number;
}

export type StepState = 'done' | 'next' | 'waiting' | 'later';

export type FirstRunStepId = 'buy' | 'upload' | 'train' | 'create';

export interface FirstRunStep {
  id: FirstRunStepId;
  title: string;
  text: string;
  /** Where the user stands on this step, in their words. */
  progress: string;
  to: string;
  action: string;
  state: StepState;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Buy → upload → train → create: each step done or not by what the account holds; the first not done is next. */
export function firstRunSteps({ credits, selfieCount, models, avatarCount }: FirstRunFacts): FirstRunStep[] {
  const trained = models.some((model) => isCompletedStatus(model.status));
  const training = models.some((model) => isTrainingStatus(model.status));
  const startedAModel = trained || training;
  const steps: Omit<FirstRunStep, 'state'>[] = [
    {
      id: 'buy',
      title: 'Buy credits',
      text: `Start with $5 for 50 credits. A model costs ${TRAINING_COST} to train.`,
      progress: `You have ${plural(credits, 'credit')}`,
      to: paths.credits,
      action: credits === 0 ? 'Get Credits to Start' : 'Buy Credits',
    },
    {
      id: 'upload',
      title: 'Upload selfies',
      text: `${TRAINING_IMAGES.min}-${TRAINING_IMAGES.max} clear photos of just you, from different angles.`,
      progress:
        selfieCount >= TRAINING_IMAGES.min
          ? `${plural(selfieCount, 'selfie')} uploaded`
          : `${selfieCount} of ${TRAINING_IMAGES.min} uploaded`,
      to: paths.models,
      action: 'Upload Selfies',
    },
    {
      id: 'train',
      title: 'Train your model',
      text: 'Your model learns your likeness from the selfies you pick.',
      progress: trained ? 'Your model is ready' : training ? 'Your model is training' : 'Not started',
      to: paths.models,
      action: 'Train Your Model',
    },
    {
      id: 'create',
      title: 'Create your photos',
      text: `Pick a look or write a prompt. ${GENERATION_COST} credits a run.`,
      progress: avatarCount > 0 ? plural(avatarCount, 'avatar') : 'No avatars yet',
      to: paths.create,
      action: 'Start Creating',
    },
  ];
  const done: Record<FirstRunStepId, boolean> = {
    buy: credits >= TRAINING_COST || startedAModel,
    upload: selfieCount >= TRAINING_IMAGES.min || startedAModel,
    train: trained,
    create: avatarCount > 0,
  };
  const nextId = steps.find((step) => !done[step.id])?.id;
  const stateOf = (id: FirstRunStepId): StepState => {
    if (done[id]) return 'done';
    if (id !== nextId) return 'later';
    return id === 'train' && training ? 'waiting' : 'next';
  };
  return steps.map((step) => ({ ...step, state: stateOf(step.id) }));
}
