import { createTrainingProvider } from './create-training-provider.js';
import { LocalTrainingProvider } from './local-training-provider.js';
import { ReplicateTrainingProvider } from './replicate-training-provider.js';

describe(createTrainingProvider.name, () => {
  it('should choose the local adapter when it is named', () => {
    const sut = createTrainingProvider({ provider: 'local', localTrainingMs: 5 });
    expect(sut).toBeInstanceOf(LocalTrainingProvider);
    expect((sut as LocalTrainingProvider).trainingMs).toBe(5);
  });

  it('should choose the local adapter when it is named, even with a Replicate token', () => {
    expect(createTrainingProvider({ provider: 'local', replicateApiToken: 'r8_x' })).toBeInstanceOf(
      LocalTrainingProvider,
    );
  });

  it('should choose Replicate when it is named, with its settings', () => {
    const sut = createTrainingProvider({
      provider: 'replicate',
      replicateApiToken: 'r8_x',
      replicateOwner: 'me',
      replicateTrainerVersion: 'ostris/flux-dev-lora-trainer:abc123',
    });
    expect(sut).toBeInstanceOf(ReplicateTrainingProvider);
    expect(sut.kind).toBe('replicate');
  });

  it('should name what is missing when a token comes without owner and trainer', () => {
    expect(() => createTrainingProvider({ provider: 'replicate', replicateApiToken: 'r8_x' })).toThrow(
      /REPLICATE_OWNER and REPLICATE_TRAINER_VERSION/,
    );
    expect(() => createTrainingProvider({ provider: 'replicate' })).toThrow(/REPLICATE_API_TOKEN/);
  });
});
