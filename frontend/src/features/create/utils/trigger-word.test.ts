import { describe, expect, it } from 'vitest';
import { containsTriggerWord, insertTriggerWord } from './trigger-word';

describe(insertTriggerWord.name, () => {
  const known = ['ada', 'grace', 'word2'];

  it('should turn an empty prompt into the word and a space', () => {
    expect(insertTriggerWord('', 'ada', known)).toEqual({ prompt: 'ada ', changed: true });
    expect(insertTriggerWord('   ', 'ada', known)).toEqual({ prompt: 'ada ', changed: true });
  });

  it("should replace a prompt that is only one of the user's trigger words", () => {
    expect(insertTriggerWord('grace ', 'ada', known)).toEqual({ prompt: 'ada ', changed: true });
    expect(insertTriggerWord('  WORD2', 'ada', known)).toEqual({ prompt: 'ada ', changed: true });
  });

  it('should leave a prompt that is already just this word as it is', () => {
    expect(insertTriggerWord('ada ', 'ada', known)).toEqual({ prompt: 'ada ', changed: false });
  });

  it('should prepend the word to a prompt without it', () => {
    expect(insertTriggerWord('an astronaut on the moon', 'ada', known)).toEqual({
      prompt: 'ada an astronaut on the moon',
      changed: true,
    });
    expect(insertTriggerWord('  grace as a pilot', 'ada', known)).toEqual({
      prompt: 'ada grace as a pilot',
      changed: true,
    });
  });

  it('should keep a prompt that has the word anywhere, in any case', () => {
    expect(insertTriggerWord('portrait of Ada in Paris', 'ada', known)).toEqual({
      prompt: 'portrait of Ada in Paris',
      changed: false,
    });
  });

  it('should not take a longer word for the trigger word', () => {
    expect(insertTriggerWord('word23 smiling', 'word2', known).prompt).toBe('word2 word23 smiling');
  });
});

describe(containsTriggerWord.name, () => {
  it('should find the word on its own, next to punctuation, but not inside another word', () => {
    expect(containsTriggerWord('ada, smiling', 'ada')).toBe(true);
    expect(containsTriggerWord('(ada)', 'ada')).toBe(true);
    expect(containsTriggerWord('canada', 'ada')).toBe(false);
    expect(containsTriggerWord('ada_x', 'ada')).toBe(false);
    expect(containsTriggerWord('anything', '')).toBe(false);
  });

  it('should treat the word literally', () => {
    expect(containsTriggerWord('a-b', 'a.b')).toBe(false);
    expect(containsTriggerWord('x a-b y', 'a-b')).toBe(true);
  });
});
