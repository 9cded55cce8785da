import { LocalObjectStorage } from '@likeness/storage';
import { createPredictionProvider } from './create-prediction-provider.js';
import { LocalPredictionProvider } from './local-prediction-provider.js';
import { ReplicatePredictionProvider, versionHash } from './replicate-prediction-provider.js';

describe(createPredictionProvider.name, () => {
  const storage = new LocalObjectStorage('/nonexistent');
  const imageKeysFor = async () => [];

  it('should choose the local adapter without a Replicate token', () => {
    const sut = createPredictionProvider({ storage, imageKeysFor, localGenerationMs: 5 });
    expect(sut).toBeInstanceOf(LocalPredictionProvider);
    expect((sut as LocalPredictionProvider).generationMs).toBe(5);
  });

  it('should choose Replicate with a token', () => {
    const sut = createPredictionProvider({ storage, imageKeysFor, replicateApiToken: 'r8_x' });
    expect(sut).toBeInstanceOf(ReplicatePredictionProvider);
    expect(sut.kind).toBe('replicate');
  });
});

describe(versionHash.name, () => {
  it('should take the hash of owner/name:hash and keep a bare hash', () => {
    expect(versionHash('me/likeness-model-1:abc123')).toBe('abc123');
    expect(versionHash('abc123')).toBe('abc123');
    expect(() => versionHash('me/model')).toThrow(/owner\/name:version/);
  });
});
