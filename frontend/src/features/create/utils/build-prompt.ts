import type { CustomizerCategory, CustomizerSelection } from '../data/customizer-options';

/**
 * SPEC §5: the order the chosen features take in the prompt. It differs from the order the
 * customizer lists them in: the shot type comes before the art style.
 */
export const PROMPT_ORDER: readonly CustomizerCategory[] = [
  'gender',
  'race',
  'age',
  'hairstyle',
  'eyeColor',
  'costume',
  'activity',
  'scene',
  'place',
  'lighting',
  'shotType',
  'artStyle',
];

export const PROMPT_SUFFIX = 'high quality, detailed, professional';
/** SPEC §5's fixed negative prompt: sent beside the prompt (its own field), never typed into the box. */
export const NEGATIVE_PROMPT =
  'blurry, out of focus, cartoonish, exaggerated features, cluttered background, harsh shadows, overexposed, low detail, text artifacts, distorted face, multiple faces, extra limbs';

/**
 * SPEC §5, prompt building from the customizer. The trigger word is the selected model's, else
 * the username.
 *
 * With nothing chosen SPEC says "the trigger word plus 'high quality portrait'": a plain
 * concatenation with a space ("ada high quality portrait"), because SPEC names commas only for the
 * case with selections, and the phrase reads as one description of the subject.
 *
 * With selections: the trigger word and the chosen features joined by ", " in {@link PROMPT_ORDER},
 * then ", " and the suffix. SPEC puts the fixed negative prompt after a blank line; here it goes
 * with the request as `negativePrompt` instead (issue 16), so the box holds only what the person
 * wants to see.
 */
export function buildPrompt(triggerWord: string, selection: CustomizerSelection): string {
  const features = PROMPT_ORDER.map((category) => selection[category]?.trim()).filter((feature): feature is string =>
    Boolean(feature),
  );
  if (features.length === 0) return `${triggerWord} high quality portrait`;
  return [triggerWord, ...features, PROMPT_SUFFIX].join(', ');
}

export function hasSelections(selection: CustomizerSelection): boolean {
  return Object.values(selection).some(Boolean);
}
