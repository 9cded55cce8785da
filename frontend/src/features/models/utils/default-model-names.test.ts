import { trainModelRequestSchema } from '@likeness/contracts';
import { describe, expect, it } from 'vitest';
import { defaultModelNames } from './default-model-names';

describe(defaultModelNames.name, () => {
  it('should use the first 3 lowercased letters with the time and the date', () => {
    expect(defaultModelNames('Ada_Lovelace', new Date(2026, 10, 23, 14, 5))).toEqual({
      modelName: 'ada1405_23112026',
      triggerWord: 'ada1405',
    });
  });

  it('should pad the hour, minute, day and month', () => {
    expect(defaultModelNames('bob', new Date(2027, 0, 2, 3, 4))).toEqual({
      modelName: 'bob0304_02012027',
      triggerWord: 'bob0304',
    });
  });

  it('should make names the shared schema accepts', () => {
    const names = defaultModelNames('X_9', new Date(2026, 11, 31, 23, 59));
    expect(trainModelRequestSchema.pick({ modelName: true, triggerWord: true }).safeParse(names).success).toBe(true);
  });
});
