import { describe, expect, it } from 'vitest';
import { trainingMessages, trainingPreCheck } from './training-checks';

describe(trainingPreCheck.name, () => {
  const ok = { modelName: 'ada1405_23112026', selectedCount: 12, credits: 30 };

  it('should pass a named model with 12-20 images and 30 credits', () => {
    expect(trainingPreCheck(ok)).toBeNull();
    expect(trainingPreCheck({ ...ok, selectedCount: 20 })).toBeNull();
  });

  it('should check the name, then the image count, then the credits', () => {
    expect(trainingPreCheck({ modelName: '  ', selectedCount: 3, credits: 0 })).toBe('Please enter a model name');
    expect(trainingPreCheck({ ...ok, selectedCount: 11, credits: 0 })).toBe(
      'Please select at least 12 reference images for optimal training',
    );
    expect(trainingPreCheck({ ...ok, selectedCount: 21, credits: 0 })).toBe(
      'Please select no more than 20 reference images for optimal training',
    );
    expect(trainingPreCheck({ ...ok, credits: 29 })).toBe('Insufficient credits. Model training requires 30 credits.');
  });

  it('should warn below 30 credits in SPEC words', () => {
    expect(trainingMessages.lowCreditsWarning).toBe('You need at least 30 credits to train a custom model');
  });
});
