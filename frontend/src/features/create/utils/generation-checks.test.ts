import { describe, expect, it } from 'vitest';
import { generationMessages, generationPreCheck } from './generation-checks';

describe(generationPreCheck.name, () => {
  const ok = { signedIn: true, credits: 5, modelId: 1, prompt: 'ada on the moon' };

  it('should pass a signed-in user with 5 credits, a model and a prompt', () => {
    expect(generationPreCheck(ok)).toBeNull();
  });

  it('should check sign-in, then credits, then the model, then the prompt', () => {
    expect(generationPreCheck({ signedIn: false, credits: 0, modelId: null, prompt: '' })).toEqual({
      title: 'Authentication required',
      description: 'Please log in to generate avatars.',
    });
    expect(generationPreCheck({ ...ok, credits: 4, modelId: null, prompt: '' })).toEqual({
      title: 'Insufficient credits',
      description: 'You need at least 5 credits to generate an avatar. Please purchase more credits.',
    });
    expect(generationPreCheck({ ...ok, modelId: null, prompt: '' })).toEqual({
      title: 'Model required',
      description: 'Please select a custom model first.',
    });
    expect(generationPreCheck({ ...ok, prompt: '  \n ' })).toEqual({
      title: 'Prompt required',
      description: 'Please enter a description of how you want your avatar to look.',
    });
  });

  it('should warn under 5 credits in SPEC words', () => {
    expect(generationMessages.lowCreditsWarning).toBe('You need 5 credits to generate avatars.');
  });
});
