import { GENERATION_COST, TRAINING_COST, TRAINING_IMAGES } from '@likeness/contracts';
import type { DriveStep } from 'driver.js';

/** The dashboard element a step points at (`data-tour` lists the targets an element stands for). */
export type TourTarget = 'custom-models' | 'character-customizer' | 'prompt-input' | 'gallery' | 'credits';

const target = (name: TourTarget) => `[data-tour~="${name}"]`;

/** SPEC §2's six onboarding steps, over the dashboard's real elements. */
export const tourSteps: DriveStep[] = [
  {
    popover: {
      title: 'Welcome to Likeness!',
      description:
        'Turn your selfies into studio-quality AI photos of yourself. This quick tour shows you around in under a minute.',
    },
  },
  {
    element: target('custom-models'),
    popover: {
      title: 'Upload your selfies',
      description: `Start in Custom Models: upload ${TRAINING_IMAGES.min}-${TRAINING_IMAGES.max} selfies with varied angles, expressions and lighting, then train a model of your likeness.`,
    },
  },
  {
    element: target('character-customizer'),
    popover: {
      title: 'Character customizer',
      description:
        'On the Create page, build a look in a few clicks from 70+ jobs and activities, 60+ art styles and places around the world.',
    },
  },
  {
    element: target('prompt-input'),
    popover: {
      title: 'Describe your photo',
      description: 'Or write your own prompt. Type @ to insert your model’s trigger word, then press Generate.',
    },
  },
  {
    element: target('gallery'),
    popover: {
      title: 'Your gallery',
      description: 'Every avatar you create lands here, ready to download, share or reuse its prompt.',
    },
  },
  {
    element: target('credits'),
    popover: {
      title: 'Credits',
      description: `Making a photo costs ${GENERATION_COST} credits. Training your AI twin costs ${TRAINING_COST} credits. Start with $5 for 50 credits - no monthly fees!`,
    },
  },
];
