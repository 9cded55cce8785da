import { describe, expect, it } from 'vitest';
import { buildPrompt, hasSelections, NEGATIVE_PROMPT } from './build-prompt';

describe(buildPrompt.name, () => {
  it('should be the trigger word and "high quality portrait" with nothing chosen', () => {
    expect(buildPrompt('ada', {})).toBe('ada high quality portrait');
    expect(buildPrompt('ada', { gender: '', artStyle: undefined })).toBe('ada high quality portrait');
  });

  it('should join the trigger word, the chosen features and the suffix with commas, and leave the negative prompt out', () => {
    const prompt = buildPrompt('ada', { gender: 'Female', artStyle: 'watercolor' });

    expect(prompt).toBe('ada, Female, watercolor, high quality, detailed, professional');
    expect(prompt).not.toContain('blurry');
  });

  it("should keep SPEC's fixed negative prompt for the request's own field", () => {
    expect(NEGATIVE_PROMPT).toBe(
      'blurry, out of focus, cartoonish, exaggerated features, cluttered background, harsh shadows, overexposed, low detail, text artifacts, distorted face, multiple faces, extra limbs',
    );
  });

  it('should put the features in SPEC order whatever order they were chosen in, the shot type before the art style', () => {
    const prompt = buildPrompt('ada', {
      artStyle: 'oil painting',
      shotType: 'close-up shot',
      lighting: 'studio lighting',
      place: 'in Paris',
      scene: 'at sunset',
      activity: 'reading a book',
      costume: 'trench coat',
      eyeColor: 'green eyes',
      hairstyle: 'bob cut',
      age: 'Adult (30s)',
      race: 'European',
      gender: 'Non-binary',
    });

    expect(prompt).toBe(
      'ada, Non-binary, European, Adult (30s), bob cut, green eyes, trench coat, reading a book, at sunset, in Paris, ' +
        'studio lighting, close-up shot, oil painting, high quality, detailed, professional',
    );
  });
});

describe(hasSelections.name, () => {
  it('should say whether any category has an option', () => {
    expect(hasSelections({})).toBe(false);
    expect(hasSelections({ gender: undefined })).toBe(false);
    expect(hasSelections({ place: 'in Rome' })).toBe(true);
  });
});
