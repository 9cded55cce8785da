import { LocalObjectStorage } from '@likeness/storage';
import { createPredictionProvider } from './create-prediction-provider.js';
import { LocalPredictionProvider } from './local-prediction-provider.js';
import { ReplicatePredictionProvider, versionHash } from './replicate-prediction-provider.js';

describe(createPredictionProvider.name, () => {
  const storage = new LocalObjectStorage('/nonexistent');
  const imageKeysFor = async () => [];

  it('should choose the local adapter when it is named, even with a Replicate token', () => {
    const sut = createPredictionProvider({ provider: 'local', storage, imageKeysFor, localGenerationMs: 5 });
    expect(sut).toBeInstanceOf(LocalPredictionProvider);
    expect((sut as LocalPredictionProvider).generationMs).toBe(5);
    const named = createPredictionProvider({ provider: 'local', storage, imageKeysFor, replicateApiToken: 'r8_x' });
    expect(named).toBeInstanceOf(LocalPredictionProvider);
  });

  it('should choose Replicate when it is named, with a token', () => {
    const sut = createPredictionProvider({ provider: 'replicate', storage, imageKeysFor, replicateApiToken: 'r8_x' });
    expect(sut).toBeInstanceOf(ReplicatePredictionProvider);
    expect(sut.kind).toBe('replicate');
    expect(() => createPredictionProvider({ provider: 'replicate', storage, imageKeysFor })).toThrow(
      /REPLICATE_API_TOKEN/,
    );
  });
});

describe(versionHash.name, () => {
  it('should take the hash of owner/name:hash and keep a bare hash', () => {
    expect(versionHash('me/likeness-model-1:abc123')).toBe('abc123');
    expect(versionHash('abc123')).toBe('abc123');
    expect(() => versionHash('me/model')).toThrow(/owner\/name:version/);
  });
});
