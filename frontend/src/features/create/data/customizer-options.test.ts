import { describe, expect, it } from 'vitest';
import {
  CUSTOMIZER_CATEGORIES,
  CUSTOMIZER_OPTIONS,
  LOOK_CATEGORIES,
  PERSON_CATEGORIES,
  personOf,
  randomLook,
} from './customizer-options';

describe('CUSTOMIZER_OPTIONS', () => {
  it('should offer the three genders and five ages SPEC names, in its order', () => {
    expect(CUSTOMIZER_OPTIONS.gender).toEqual(['Male', 'Female', 'Non-binary']);
    expect(CUSTOMIZER_OPTIONS.age).toEqual([
      'Young adult (20s)',
      'Adult (30s)',
      'Mature adult (40s)',
      'Middle-aged (50s)',
      'Distinguished (60+)',
    ]);
  });

  it('should have the list sizes SPEC gives', () => {
    expect(CUSTOMIZER_OPTIONS.activity.length).toBeGreaterThan(100);
    expect(CUSTOMIZER_OPTIONS.artStyle.length).toBeGreaterThanOrEqual(105);
    expect(CUSTOMIZER_OPTIONS.artStyle.length).toBeLessThanOrEqual(115);
    expect(CUSTOMIZER_OPTIONS.shotType).toHaveLength(33);
    expect(CUSTOMIZER_OPTIONS.lighting).toHaveLength(9);
    expect(CUSTOMIZER_OPTIONS.place.length).toBeGreaterThanOrEqual(55);
    expect(CUSTOMIZER_OPTIONS.place.length).toBeLessThanOrEqual(65);
    for (const category of ['race', 'hairstyle', 'eyeColor', 'costume', 'scene'] as const) {
      expect(CUSTOMIZER_OPTIONS[category].length, category).toBeGreaterThanOrEqual(10);
      expect(CUSTOMIZER_OPTIONS[category].length, category).toBeLessThanOrEqual(40);
    }
  });

  it.each(CUSTOMIZER_CATEGORIES)('should list no %s twice, ignoring case, and no blank option', (category) => {
    const options = CUSTOMIZER_OPTIONS[category];
    expect(new Set(options.map((option) => option.toLowerCase())).size).toBe(options.length);
    for (const option of options) expect(option.trim()).toBe(option);
    for (const option of options) expect(option).not.toBe('');
  });

  it('should carry the words the local preview generator reacts to', () => {
    const has = (options: readonly string[], word: string) => options.some((option) => option.includes(word));
    for (const word of [
      'watercolor',
      'oil painting',
      'anime',
      'pencil sketch',
      'black and white',
      'pop art',
      'cyberpunk',
      'vintage',
    ]) {
      expect(has(CUSTOMIZER_OPTIONS.artStyle, word), word).toBe(true);
    }
    for (const word of ['golden hour', 'studio lighting', 'neon lighting', 'moody lighting', 'soft natural light']) {
      expect(has(CUSTOMIZER_OPTIONS.lighting, word), word).toBe(true);
    }
    for (const word of ['close-up', 'full body shot', 'portrait']) {
      expect(has(CUSTOMIZER_OPTIONS.shotType, word), word).toBe(true);
    }
  });
});

describe(randomLook.name, () => {
  it('should pick one option in every category of the look, and leave the person unchosen', () => {
    const look = randomLook();

    expect(Object.keys(look).sort()).toEqual([...LOOK_CATEGORIES].sort());
    for (const category of LOOK_CATEGORIES) expect(CUSTOMIZER_OPTIONS[category]).toContain(look[category]);
  });

  it('should never change gender, ethnicity, age, hair or eyes, whether chosen or "Any"', () => {
    const person = { gender: 'Female', race: 'East Asian', age: 'Distinguished (60+)', eyeColor: 'green eyes' };
    for (const random of [() => 0, () => 0.5, () => 0.999_999, Math.random]) {
      const look = randomLook({ ...person, costume: 'tuxedo', place: 'in Rome' }, random);

      expect(personOf(look)).toEqual(person);
      expect(look.hairstyle).toBeUndefined();
      for (const category of PERSON_CATEGORIES) expect(look[category]).toBe(person[category as keyof typeof person]);
    }
  });

  it('should vary the outfit, activity, scene, place, lighting, art style and shot type', () => {
    expect(LOOK_CATEGORIES).toEqual(['costume', 'activity', 'scene', 'place', 'lighting', 'artStyle', 'shotType']);
    expect(randomLook({ costume: 'tuxedo' }, () => 0).costume).toBe(CUSTOMIZER_OPTIONS.costume[0]);
  });

  it('should reach the first and the last option of each list', () => {
    expect(randomLook({}, () => 0).shotType).toBe(CUSTOMIZER_OPTIONS.shotType[0]);
    expect(randomLook({}, () => 0.999_999).shotType).toBe(CUSTOMIZER_OPTIONS.shotType.at(-1));
  });
});
