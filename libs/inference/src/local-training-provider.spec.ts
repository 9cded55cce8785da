import { TrainingNotFoundError } from './errors.js';
import type { StartTrainingInput } from './inference-provider.js';
import { LOCAL_TRAINING_FAILURE, LocalTrainingProvider } from './local-training-provider.js';

const input = (overrides: Partial<StartTrainingInput> = {}): StartTrainingInput => ({
  modelId: 7,
  userId: 3,
  triggerWord: 'ohwx',
  imageKeys: ['selfies/3/a.jpg', 'selfies/3/b.jpg'],
  ...overrides,
});

describe(LocalTrainingProvider.name, () => {
  let clock: number;
  const now = () => clock;
  let sut: LocalTrainingProvider;

  beforeEach(() => {
    clock = Date.UTC(2025, 0, 1);
    sut = new LocalTrainingProvider({ trainingMs: 1_000, now });
  });

  it('should be processing until trainingMs has passed, then succeed with a local version', async () => {
    const started = await sut.startTraining(input());
    expect(started).toEqual({ id: expect.stringMatching(/^local-7-/), status: 'processing' });
    expect(started.destination).toBeUndefined();

    clock += 999;
    expect((await sut.getTraining(started.id)).status).toBe('processing');
    clock += 1;
    expect(await sut.getTraining(started.id)).toEqual({ id: started.id, status: 'succeeded', version: 'local:7' });
  });

  it('should fail with an explanation when the trigger word is fail-training', async () => {
    const started = await sut.startTraining(input({ triggerWord: 'fail-training' }));
    clock += 1_000;
    expect(await sut.getTraining(started.id)).toEqual({
      id: started.id,
      status: 'failed',
      error: LOCAL_TRAINING_FAILURE,
    });
  });

  it('should succeed when the trigger word only contains fail-training', async () => {
    const started = await sut.startTraining(input({ triggerWord: 'fail-training2' }));
    clock += 1_000;
    expect((await sut.getTraining(started.id)).status).toBe('succeeded');
  });

  it('should answer the same way from a new instance when the process restarted', async () => {
    const ok = await sut.startTraining(input());
    const failing = await sut.startTraining(input({ modelId: 8, triggerWord: 'fail-training' }));
    const restarted = new LocalTrainingProvider({ trainingMs: 1_000, now });

    expect((await restarted.getTraining(ok.id)).status).toBe('processing');
    clock += 1_000;
    expect(await restarted.getTraining(ok.id)).toEqual(await sut.getTraining(ok.id));
    expect(await restarted.getTraining(failing.id)).toEqual(await sut.getTraining(failing.id));
    expect((await restarted.getTraining(failing.id)).status).toBe('failed');
  });

  it('should return the training already under way when started again for the same model', async () => {
    const first = await sut.startTraining(input());
    clock += 500;
    expect(await sut.startTraining(input())).toEqual(first);
    clock += 500;
    expect((await sut.startTraining(input())).id).toBe(first.id);
  });

  it('should start afresh when the earlier training of the model failed', async () => {
    const first = await sut.startTraining(input({ triggerWord: 'fail-training' }));
    clock += 1_000;
    const second = await sut.startTraining(input({ triggerWord: 'ohwx' }));
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('processing');
  });

  it('should derive the same training from startedAt across instances', async () => {
    const startedAt = new Date(clock - 400);
    const first = await sut.startTraining(input({ startedAt }));
    const again = await new LocalTrainingProvider({ trainingMs: 1_000, now }).startTraining(input({ startedAt }));
    expect(again).toEqual(first);
    clock += 600;
    expect((await sut.getTraining(first.id)).status).toBe('succeeded');
  });

  it('should report a cancelled training as canceled', async () => {
    const started = await sut.startTraining(input());
    await sut.cancelTraining(started.id);
    clock += 1_000;
    expect((await sut.getTraining(started.id)).status).toBe('canceled');
    expect((await sut.startTraining(input())).id).not.toBe(started.id);
  });

  it('should leave a finished training as it was when cancelled', async () => {
    const started = await sut.startTraining(input());
    clock += 1_000;
    await sut.cancelTraining(started.id);
    expect((await sut.getTraining(started.id)).status).toBe('succeeded');
  });

  it('should throw TrainingNotFoundError for an id it never issues', async () => {
    await expect(sut.getTraining('r8_abc')).rejects.toBeInstanceOf(TrainingNotFoundError);
  });

  it('should default to 15 seconds and have nothing to delete', async () => {
    expect(new LocalTrainingProvider().trainingMs).toBe(15_000);
    await expect(sut.deleteModel('anything')).resolves.toBeUndefined();
  });
});
