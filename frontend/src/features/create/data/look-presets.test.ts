import { describe, expect, it } from 'vitest';
import { CUSTOMIZER_OPTIONS, LOOK_CATEGORIES, type LookCategory } from './customizer-options';
import { LOOK_PRESETS, applyPreset, isPresetApplied } from './look-presets';

describe('LOOK_PRESETS', () => {
  it.each(LOOK_PRESETS.map((preset) => [preset.name, preset] as const))(
    'should build "%s" from the customizer\'s own options, never the person',
    (_, preset) => {
      for (const [category, option] of Object.entries(preset.look)) {
        expect(LOOK_CATEGORIES).toContain(category);
        expect(CUSTOMIZER_OPTIONS[category as LookCategory]).toContain(option);
      }
    },
  );
});

describe(applyPreset.name, () => {
  it('should keep the chosen person and replace the rest of the look', () => {
    const [headshot] = LOOK_PRESETS;
    if (!headshot) throw new Error('no presets');
    const applied = applyPreset(headshot, { gender: 'Male', age: 'Adult (30s)' });

    expect(applied).toEqual({ gender: 'Male', age: 'Adult (30s)', ...headshot.look });
    expect(isPresetApplied(headshot, applied, { gender: 'Male', age: 'Adult (30s)' })).toBe(true);
    expect(isPresetApplied(headshot, { ...applied, scene: 'at sunset' }, { gender: 'Male', age: 'Adult (30s)' })).toBe(
      false,
    );
  });
});
