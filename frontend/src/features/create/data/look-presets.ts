import type { CustomizerCategory, CustomizerSelection, LookCategory } from './customizer-options';

/** A look chosen in one tap: options from the customizer's own lists, never who the person is. */
export interface LookPreset {
  id: string;
  name: string;
  /** A few words under the name. */
  blurb: string;
  look: Partial<Record<LookCategory, string>>;
}

/** The presets row above the customizer's dropdowns, for a first photo in one tap. */
export const LOOK_PRESETS: readonly LookPreset[] = [
  {
    id: 'headshot',
    name: 'Professional headshot',
    blurb: 'Suit, studio light',
    look: {
      costume: 'tailored business suit',
      place: 'in a photo studio',
      lighting: 'studio lighting',
      artStyle: 'photorealistic',
      shotType: 'head and shoulders portrait',
    },
  },
  {
    id: 'golden-hour',
    name: 'Golden hour',
    blurb: 'Beach at sunset',
    look: {
      costume: 'linen shirt',
      scene: 'at sunset',
      place: 'on a tropical beach',
      lighting: 'golden hour lighting',
      artStyle: 'photorealistic',
      shotType: 'medium shot',
    },
  },
  {
    id: 'city-nights',
    name: 'City nights',
    blurb: 'Neon, Tokyo',
    look: {
      costume: 'leather jacket',
      scene: 'with city lights in the background',
      place: 'in Tokyo',
      lighting: 'neon lighting',
      artStyle: 'cinematic film still',
      shotType: 'medium close-up shot',
    },
  },
  {
    id: 'fantasy-hero',
    name: 'Fantasy hero',
    blurb: 'Armour, enchanted forest',
    look: {
      costume: 'medieval knight armor',
      scene: 'in an enchanted forest',
      lighting: 'dramatic rim lighting',
      artStyle: 'fantasy concept art',
      shotType: 'full body shot',
    },
  },
  {
    id: 'watercolor',
    name: 'Watercolour',
    blurb: 'Soft, painted, cosy',
    look: {
      costume: 'cozy knit sweater',
      activity: 'reading a book',
      place: 'in a cozy cafe',
      lighting: 'soft natural light',
      artStyle: 'watercolor illustration',
      shotType: 'portrait',
    },
  },
  {
    id: 'film-noir',
    name: 'Film noir',
    blurb: 'Black and white, rain',
    look: {
      costume: 'trench coat',
      scene: 'on a rainy day',
      lighting: 'moody lighting',
      artStyle: 'film noir',
      shotType: 'low angle shot',
    },
  },
];

/** The preset's look over the person the user chose (the look's other categories are cleared). */
export function applyPreset(preset: LookPreset, person: CustomizerSelection): CustomizerSelection {
  return { ...person, ...preset.look };
}

/** Whether `selection` is exactly the preset's look (whatever person was chosen with it). */
export function isPresetApplied(
  preset: LookPreset,
  selection: CustomizerSelection,
  person: CustomizerSelection,
): boolean {
  const applied = applyPreset(preset, person);
  const keys = new Set([...Object.keys(applied), ...Object.keys(selection)]) as Set<CustomizerCategory>;
  return [...keys].every((key) => applied[key] === selection[key]);
}
