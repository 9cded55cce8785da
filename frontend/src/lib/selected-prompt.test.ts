import { afterEach, describe, expect, it } from 'vitest';
import { SELECTED_PROMPT_KEY, storeSelectedPrompt, takeSelectedPrompt } from './selected-prompt';

afterEach(() => localStorage.clear());

describe(takeSelectedPrompt.name, () => {
  it('should give the stored prompt once and forget it', () => {
    storeSelectedPrompt('astronaut floating above Earth');

    expect(localStorage.getItem(SELECTED_PROMPT_KEY)).toBe('astronaut floating above Earth');
    expect(takeSelectedPrompt()).toBe('astronaut floating above Earth');
    expect(takeSelectedPrompt()).toBeNull();
    expect(localStorage.getItem(SELECTED_PROMPT_KEY)).toBeNull();
  });

  it('should treat a blank stored prompt as none', () => {
    localStorage.setItem(SELECTED_PROMPT_KEY, '   ');

    expect(takeSelectedPrompt()).toBeNull();
  });
});
