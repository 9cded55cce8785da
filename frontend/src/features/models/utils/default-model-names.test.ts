import { trainModelRequestSchema } from '@likeness/contracts';
import { describe, expect, it } from 'vitest';
import { defaultModelNames } from './default-model-names';

const names = trainModelRequestSchema.pick({ modelName: true, triggerWord: true });

describe(defaultModelNames.name, () => {
  it('should name the model like a name, with the person and the day', () => {
    expect(defaultModelNames('maya', new Date(2026, 10, 23, 14, 5))).toEqual({
      modelName: 'Maya model Nov 23',
      triggerWord: 'may1405',
    });
  });

  it('should turn underscores into spaces and keep the trigger word SPEC made', () => {
    expect(defaultModelNames('Ada_Lovelace', new Date(2027, 0, 2, 3, 4))).toEqual({
      modelName: 'Ada Lovelace model Jan 2',
      triggerWord: 'ada0304',
    });
  });

  it.each([
    ['X_9', new Date(2026, 11, 31, 23, 59)],
    ['a_very_long_username', new Date(2026, 8, 30, 0, 0)],
    ['bob', new Date(2026, 4, 1, 9, 30)],
    ['___', new Date(2026, 4, 1, 9, 30)],
  ])('should make names the shared schema accepts for %s', (username, now) => {
    const made = defaultModelNames(username, now);

    expect(names.safeParse(made).success).toBe(true);
    expect(made.modelName.length).toBeLessThanOrEqual(30);
    expect(made.modelName).not.toMatch(/['’,]/);
  });
});
