import { GenerationEvents, MediaRpc, TrainingRpc } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { type ReplicateStandIn, startReplicateStandIn, waitFor } from '@likeness/testing';
import { FailureReasons } from '../src/jobs/failure-reasons.js';
import { JobRunner } from '../src/workers/job-runner.js';
import { type GenerationUnderTest, startGenerationOnReplicate } from './generation-harness.js';

/**
 * The runner's dealings with the prediction provider, against the Replicate stand-in: a request
 * Replicate refuses is not sent again, and a prediction an earlier attempt started is adopted
 * (its id is kept on the job), never started twice; each one costs money. The roles run apart,
 * as they scale: an API process takes the requests, a worker process the queue.
 */
describe(`${JobRunner.name} on Replicate`, () => {
  let standIn: ReplicateStandIn;
  let sut: GenerationUnderTest;
  let version: string;
  let worker: Awaited<ReturnType<GenerationUnderTest['startReplica']>>;

  beforeAll(async () => {
    standIn = await startReplicateStandIn();
    ({ sut, worker, version } = await startGenerationOnReplicate('genreplicate', standIn));
  });

  afterEach(async () => {
    expect(sut.standIns.malformed).toEqual([]);
    await sut.answerAsUsual();
  });

  afterAll(async () => {
    await sut?.close();
    await standIn?.close();
  });

  const predictionsFor = (prompt: string) =>
    standIn.predictions().filter((prediction) => prediction.input['prompt'] === prompt);
  /** Waits for the job's prediction to start at Replicate and be kept on the job. */
  async function startedPrediction(jobId: string, prompt: string) {
    const [prediction] = await waitFor(async () => {
      const started = predictionsFor(prompt);
      return started.length > 0 ? started : undefined;
    });
    await waitFor(async () => (await sut.row(jobId))?.prediction_id === prediction!.id, {
      what: 'the prediction kept on the job',
    });
    return prediction!;
  }
  const predictionCreations = () =>
    standIn.requests().filter((request) => request.method === 'POST' && request.path === '/v1/predictions');
  async function settled(jobId: string): Promise<void> {
    await waitFor(async () => !(await sut.queued()).some((message) => message.payload['jobId'] === jobId), {
      what: `the queue done with job ${jobId}`,
    });
    await sut.published();
  }

  it('should fail the job without asking again when Replicate refuses the prediction', async () => {
    // A version Replicate does not know (deleted with its model): 422, which no retry changes.
    const unknown = `${standIn.owner}/deleted-model:${'0'.repeat(64)}`;
    await sut.standIns.answer(TrainingRpc.getRunnableModel, (request) => ({
      ...sut.runnableModel(request.id),
      version: unknown,
    }));
    const creationsBefore = predictionCreations().length;
    const { jobId } = await sut.generate(401, { promptText: 'tw7 with a deleted model' });

    const failed = await sut.finished(401, jobId);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toMatch(
      /^The image provider refused this request \(Replicate refused to start a prediction with .+ \(422\): Invalid version/,
    );
    expect(failed.failureReason).toMatch(/Your credits were not charged\.$/);
    await settled(jobId);
    expect(predictionCreations().slice(creationsBefore)).toEqual([
      { method: 'POST', path: '/v1/predictions', status: 422 },
    ]);
    expect((await sut.row(jobId))?.attempts).toBe(1);
    expect(await sut.eventsOf(GenerationEvents.GenerationFailed, jobId)).toEqual([
      { jobId, userId: 401, holdReference: `generation:${jobId}`, reason: failed.failureReason },
    ]);
  });

  it('should adopt the prediction an earlier attempt started instead of starting another', async () => {
    // The first attempt gets as far as media, which is away for a moment; the next must not pay twice.
    let stores = 0;
    await sut.standIns.answer(MediaRpc.storeAvatar, (request) => {
      stores += 1;
      if (stores === 1) throw new DomainError('COMMON.SERVICE_UNAVAILABLE', 'The media service is not available.');
      return sut.keepAvatar(request);
    });
    const prompt = 'tw7 painted by a patient artist';
    const { jobId } = await sut.generate(402, { promptText: prompt, numOutputs: 2 });
    const prediction = await startedPrediction(jobId, prompt);
    expect(prediction.version).toBe(version.split(':')[1]);
    standIn.completePrediction(prediction.id, { status: 'succeeded' });

    const done = await sut.finished(402, jobId, 20_000);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.avatarIds).toHaveLength(2);
    await settled(jobId);
    expect(predictionsFor(prompt)).toHaveLength(1);
    expect(await sut.row(jobId)).toMatchObject({ prediction_id: prediction.id, attempts: 2 });
    expect(await sut.eventsOf(GenerationEvents.GenerationCompleted, jobId)).toHaveLength(1);
  });

  it('should cancel a prediction still running at Replicate when its job fails', async () => {
    // The worker running the job is replaced mid-prediction, and meanwhile the model was deleted:
    // the prediction would go on running, paid for, with nobody to take its images.
    const prompt = 'tw7 while the model is deleted';
    await sut.standIns.answer(TrainingRpc.getRunnableModel, (request) => {
      const checks = sut.standIns.calls(TrainingRpc.getRunnableModel).filter((call) => call.request.userId === 403);
      if (request.userId !== 403 || checks.length <= 2) return sut.runnableModel(request.id);
      throw new DomainError('COMMON.NOT_FOUND', 'That model was not found.');
    });
    const { jobId } = await sut.generate(403, { promptText: prompt });
    const prediction = await startedPrediction(jobId, prompt);

    await worker.stop();
    worker = await sut.startReplica({ GENERATION_ROLE: 'worker' });

    expect(await sut.finished(403, jobId)).toMatchObject({ status: 'failed', failureReason: FailureReasons.modelGone });
    await settled(jobId);
    expect(standIn.prediction(prediction.id).status).toBe('canceled');
    expect(predictionsFor(prompt)).toHaveLength(1);
    expect(await sut.eventsOf(GenerationEvents.GenerationFailed, jobId)).toHaveLength(1);
  });
});
