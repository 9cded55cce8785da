import { PredictionNotFoundError, TrainingNotFoundError } from './errors.js';
import { createReplicateClient, isReplicateId, parseModelName } from './replicate-client.js';
import { ReplicatePredictionProvider } from './replicate-prediction-provider.js';
import { ReplicateTrainingProvider } from './replicate-training-provider.js';

const BASE = 'https://api.replicate.test/v1';

/** A fetch that records each URL and answers JSON from `answer`. */
function recordingFetch(answer: (url: URL) => unknown = () => ({})) {
  const urls: string[] = [];
  const fetch = (input: Request | URL | string) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url.href);
    return Promise.resolve(Response.json(answer(url)));
  };
  return { urls, fetch: fetch as typeof globalThis.fetch };
}

describe(isReplicateId.name, () => {
  it.each(['ufawqhfynnddngldkgtslldrkq', 'gm3qorzdhgbfurvjtvhg6dckhu'])('should accept %j', (id) => {
    expect(isReplicateId(id)).toBe(true);
  });

  it.each(['', '..', '../account', 'abc/cancel', 'abc?x=1', 'abc#x', '%2e%2e', 'a.b', 'a\\b', 'x'.repeat(129)])(
    'should refuse %j',
    (id) => {
      expect(isReplicateId(id)).toBe(false);
    },
  );
});

describe(parseModelName.name, () => {
  it('should split owner/name', () => {
    expect(parseModelName('likeness/likeness-model-7')).toEqual({ owner: 'likeness', name: 'likeness-model-7' });
  });

  it.each(['likeness', 'a/b/c', '../b', 'a/..', 'a/.', 'a/b?x', 'a/b%2f', '/b', 'a/'])('should refuse %j', (model) => {
    expect(() => parseModelName(model)).toThrow(/owner\/name/);
  });
});

describe('Replicate requests', () => {
  it('should call no endpoint for a prediction or training id that is not one of Replicate’s', async () => {
    const { urls, fetch } = recordingFetch();
    const predictions = new ReplicatePredictionProvider({ apiToken: 'r8_x', baseUrl: BASE, fetch });
    const trainings = new ReplicateTrainingProvider({
      apiToken: 'r8_x',
      baseUrl: BASE,
      owner: 'likeness',
      trainer: 'ostris/flux-dev-lora-trainer:abc123',
      fetch,
    });
    await expect(predictions.getPrediction('../account')).rejects.toBeInstanceOf(PredictionNotFoundError);
    await expect(predictions.cancelPrediction('x?y')).rejects.toBeInstanceOf(PredictionNotFoundError);
    await expect(trainings.getTraining('../../models')).rejects.toBeInstanceOf(TrainingNotFoundError);
    await expect(trainings.cancelTraining('a/cancel')).rejects.toBeInstanceOf(TrainingNotFoundError);
    await expect(trainings.deleteModel('likeness/../../account')).rejects.toThrow(/owner\/name/);
    expect(urls).toEqual([]);
  });

  it('should refuse an owner that would put a climb into request paths', () => {
    expect(
      () =>
        new ReplicateTrainingProvider({
          apiToken: 'r8_x',
          baseUrl: BASE,
          owner: '..',
          trainer: 'ostris/trainer:abc123',
        }),
    ).toThrow(/owner\/name/);
  });

  it('should never send the token outside the API, whatever a page names as the next one', async () => {
    const { urls, fetch } = recordingFetch((url) =>
      url.pathname.endsWith('/versions')
        ? { results: [], next: 'https://collector.example/v1/models/likeness/m/versions?cursor=2' }
        : {},
    );
    const sut = new ReplicateTrainingProvider({
      apiToken: 'r8_x',
      baseUrl: BASE,
      owner: 'likeness',
      trainer: 'ostris/flux-dev-lora-trainer:abc123',
      fetch,
    });
    await expect(sut.deleteModel('likeness/m')).rejects.toThrow(/Refused to send the Replicate token/);
    expect(urls).toEqual([`${BASE}/models/likeness/m/versions`]);
  });

  it('should call the API under its base path only', async () => {
    const { urls, fetch } = recordingFetch();
    const client = createReplicateClient({ apiToken: 'r8_x', baseUrl: BASE, fetch });
    await expect(client.request('https://api.replicate.test/v2/secrets', { method: 'GET' })).rejects.toThrow(
      /Refused to send/,
    );
    await client.request('/predictions', { method: 'GET' });
    expect(urls).toEqual([`${BASE}/predictions`]);
  });
});
