import { describe, expect, it } from 'vitest';
import { filterMentionModels, findMention, insertMention } from './mention';

describe(findMention.name, () => {
  it('should find an "@" with nothing after it at the caret', () => {
    expect(findMention('@', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(findMention('a portrait of @', 15)).toEqual({ start: 14, end: 15, query: '' });
  });

  it('should take the characters between the "@" and the caret as the query', () => {
    expect(findMention('portrait of @wo', 15)).toEqual({ start: 12, end: 15, query: 'wo' });
  });

  it('should run the fragment on to the end of the word after the caret', () => {
    expect(findMention('hi @word now', 6)).toEqual({ start: 3, end: 8, query: 'wo' });
  });

  it('should find nothing once a space follows the "@" fragment', () => {
    expect(findMention('@word ', 6)).toBeNull();
    expect(findMention('@ word', 6)).toBeNull();
    expect(findMention('no mention here', 5)).toBeNull();
    expect(findMention('', 0)).toBeNull();
  });

  it('should not take an "@" inside a word (an e-mail address) for a mention', () => {
    expect(findMention('mail ada@example', 16)).toBeNull();
  });

  it('should start after a line break too', () => {
    expect(findMention('first line\n@gr', 14)).toEqual({ start: 11, end: 14, query: 'gr' });
  });
});

describe(insertMention.name, () => {
  it('should replace the "@fragment" with the word and a space and put the caret after them', () => {
    const text = 'portrait of @wo';
    expect(insertMention(text, findMention(text, 15)!, 'word1')).toEqual({
      text: 'portrait of word1 ',
      caret: 18,
    });
  });

  it('should not add a second space when one follows', () => {
    const text = '@wo in Paris';
    expect(insertMention(text, findMention(text, 3)!, 'word1')).toEqual({ text: 'word1 in Paris', caret: 6 });
  });
});

describe(filterMentionModels.name, () => {
  const models = [
    { modelName: 'Summer Look', triggerWord: 'ada' },
    { modelName: 'studio', triggerWord: 'grace' },
  ];

  it('should keep every model for an empty query', () => {
    expect(filterMentionModels(models, '')).toEqual(models);
  });

  it('should match the trigger word or the model name, ignoring case', () => {
    expect(filterMentionModels(models, 'AD')).toEqual([models[0]]);
    expect(filterMentionModels(models, 'stu')).toEqual([models[1]]);
    expect(filterMentionModels(models, 'zzz')).toEqual([]);
  });
});
