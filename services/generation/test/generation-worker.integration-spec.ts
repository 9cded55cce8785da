import { BillingRpc, GenerationEvents, GenerationRpc, MediaRpc, TrainingRpc } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { expectSnapshotPaging, waitFor } from '@likeness/testing';
import sharp from 'sharp';
import { FailureReasons } from '../src/jobs/failure-reasons.js';
import { GenerationJobProcessor } from '../src/workers/generation-job.processor.js';
import { type GenerationUnderTest, invalidImage, startGeneration, withOutboxRefusing } from './generation-harness.js';

/**
 * The workers, through the queue as production runs them (one process with both roles, the
 * local preview generator): what a job ends as, what training and media were asked, and what
 * billing hears (GenerationCompleted captures the hold, GenerationFailed releases it). Retries
 * wait 1 s, then 2 s (the kit's back-off); a job has 3 attempts.
 */
describe(GenerationJobProcessor.name, () => {
  let sut: GenerationUnderTest;

  beforeAll(async () => {
    sut = await startGeneration('genworkers', { GENERATION_ROLE: 'all', JOB_MAX_ATTEMPTS: '3' });
  });

  afterEach(async () => {
    expect(sut.standIns.malformed).toEqual([]);
    await sut.answerAsUsual();
  });

  afterAll(async () => {
    await sut?.close();
  });

  const modelChecks = (userId: number) =>
    sut.standIns.calls(TrainingRpc.getRunnableModel).filter((call) => call.request.userId === userId);
  const storesFor = (jobId: string) =>
    sut.standIns
      .calls(MediaRpc.storeAvatar)
      .filter((call) => call.request.sourceRef.startsWith(`generation:${jobId}:`))
      .map((call) => call.request);
  const releasesFor = (jobId: string) =>
    sut.standIns.calls(BillingRpc.releaseCredits).filter((call) => call.request.reference === `generation:${jobId}`);
  const completedEvents = (jobId: string) => sut.eventsOf(GenerationEvents.GenerationCompleted, jobId);
  const failedEvents = (jobId: string) => sut.eventsOf(GenerationEvents.GenerationFailed, jobId);
  /** What the owner's waiting screen was told of the job, as stage and number of avatars kept. */
  const progressOf = async (jobId: string) =>
    (await sut.eventsOf(GenerationEvents.GenerationProgressed, jobId)).map(
      ({ stage, avatarIds }) => `${stage} ${avatarIds.length}`,
    );

  /**
   * Waits until the queue holds nothing for the job (its last delivery was acknowledged, none is
   * due) and every event it caused is published.
   */
  async function settled(jobId: string): Promise<void> {
    await waitFor(async () => !(await sut.queued()).some((message) => message.payload['jobId'] === jobId), {
      what: `the queue done with job ${jobId}`,
    });
    await sut.published();
  }

  /** Training answers the request side's check, then refuses every worker's check with `error`. */
  async function modelRefusedAfterRequest(userId: number, error: () => Error): Promise<void> {
    await sut.standIns.answer(TrainingRpc.getRunnableModel, (request) => {
      if (request.userId !== userId || modelChecks(userId).length === 1) return sut.runnableModel(request.id);
      throw error();
    });
  }

  it('should keep every output through media and announce GenerationCompleted with their avatars', async () => {
    const { jobId } = await sut.generate(301, { promptText: 'tw7 as an astronaut', numOutputs: 2 });

    const done = await sut.finished(301, jobId);
    expect(done).toMatchObject({ status: 'completed', failureReason: null });
    expect(done.completedAt).not.toBeNull();

    // Media was asked to keep each output once, under a sourceRef that makes a retry harmless.
    const stores = storesFor(jobId);
    expect(stores.map((request) => request.sourceRef).sort()).toEqual([
      `generation:${jobId}:1`,
      `generation:${jobId}:2`,
    ]);
    for (const request of stores) {
      expect(request).toMatchObject({ userId: 301, promptText: 'tw7 as an astronaut', customModelId: 7 });
      expect(request.stagingKey).toMatch(/^staging\//);
      const kept = sut.kept.get(request.sourceRef)!;
      expect(await sharp(kept.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    }
    const avatarIds = [1, 2].map((index) => sut.kept.get(`generation:${jobId}:${index}`)!.avatar.id);
    expect(done.avatarIds).toEqual(avatarIds);

    await settled(jobId);
    expect(await completedEvents(jobId)).toEqual([
      {
        jobId,
        userId: 301,
        holdReference: `generation:${jobId}`,
        customModelId: 7,
        promptText: 'tw7 as an astronaut',
        avatarIds,
      },
    ]);
    expect(await failedEvents(jobId)).toEqual([]);
    // Each move of the waiting screen told once, in order: generating, saving, each avatar kept.
    const progress = await sut.eventsOf(GenerationEvents.GenerationProgressed, jobId);
    expect(await progressOf(jobId)).toEqual(['generating 0', 'saving 0', 'saving 1', 'saving 2']);
    expect(progress.every((event) => event.userId === 301)).toBe(true);
    expect(avatarIds).toContain(progress[2]!.avatarIds[0]);
    expect([...progress[3]!.avatarIds].sort()).toEqual([...avatarIds].sort());
    expect(releasesFor(jobId)).toEqual([]);
    expect((await sut.row(jobId))?.attempts).toBe(1);
    // The request checked the model, and the worker once more before it ran.
    expect(modelChecks(301).map((call) => call.request)).toEqual([
      { userId: 301, id: 7 },
      { userId: 301, id: 7 },
    ]);
  });

  it.each([
    ['deleted', 302, () => new DomainError('COMMON.NOT_FOUND', 'That model was not found.')],
    ['no longer ready', 303, () => new DomainError('TRAINING.MODEL_NOT_READY', 'That model is not ready.')],
  ] as const)('should fail the job at once, without a retry, when the model is %s', async (_, userId, error) => {
    await modelRefusedAfterRequest(userId, error);
    const { jobId } = await sut.generate(userId);

    expect(await sut.finished(userId, jobId)).toMatchObject({
      status: 'failed',
      failureReason: FailureReasons.modelGone,
      avatarIds: [],
    });
    await settled(jobId);
    expect(await failedEvents(jobId)).toEqual([
      { jobId, userId, holdReference: `generation:${jobId}`, reason: FailureReasons.modelGone },
    ]);
    expect(await completedEvents(jobId)).toEqual([]);
    expect(await progressOf(jobId)).toEqual(['generating 0']);
    expect(modelChecks(userId)).toHaveLength(2);
    expect((await sut.row(jobId))?.attempts).toBe(1);
    expect(storesFor(jobId)).toEqual([]);
  });

  it('should try again after a passing failure, waiting longer each time, and complete', async () => {
    // The worker's first two checks find training away; the third gets through.
    await sut.standIns.answer(TrainingRpc.getRunnableModel, (request) => {
      if (request.userId === 304 && [2, 3].includes(modelChecks(304).length)) {
        throw new DomainError('COMMON.SERVICE_UNAVAILABLE', 'The training service is not available right now.');
      }
      return sut.runnableModel(request.id);
    });
    const { jobId } = await sut.generate(304);

    expect(await sut.finished(304, jobId)).toMatchObject({ status: 'completed' });
    await settled(jobId);
    const [, first, second, third] = modelChecks(304).map((call) => call.at);
    // The queue redelivers after 1 s, then after 2 s (lower bounds: the delay is the broker's promise).
    expect(second! - first!).toBeGreaterThanOrEqual(950);
    expect(third! - second!).toBeGreaterThanOrEqual(1_950);
    expect((await sut.row(jobId))?.attempts).toBe(3);
    expect(await completedEvents(jobId)).toHaveLength(1);
    expect(await failedEvents(jobId)).toEqual([]);
    // The attempts tried again were generating already: the screen was told so once.
    expect(await progressOf(jobId)).toEqual(['generating 0', 'saving 0', 'saving 1']);
  });

  it('should not move a job on when the event telling of it cannot be written', async () => {
    // Progress and its event are one transaction: refusing the event must undo the move too.
    const refused = `NEW.subject LIKE '%GenerationProgressed%' AND NEW.envelope -> 'payload' ->> 'userId' = '308'`;
    await withOutboxRefusing(sut.db, refused, async () => {
      const { jobId } = await sut.generate(308);
      expect(await sut.finished(308, jobId)).toMatchObject({
        status: 'failed',
        failureReason: FailureReasons.gaveUp(3),
      });
      await settled(jobId);
      // No attempt was ever recorded, as none could be told: the job never left the queue's stage.
      expect((await sut.row(jobId))?.attempts).toBe(0);
      expect(await progressOf(jobId)).toEqual([]);
      expect(storesFor(jobId)).toEqual([]);
    });
  });

  it('should give the job up with the gave-up reason, once, when every attempt fails', async () => {
    await modelRefusedAfterRequest(
      305,
      () => new DomainError('COMMON.SERVICE_UNAVAILABLE', 'The training service is not available right now.'),
    );
    const { jobId } = await sut.generate(305);

    expect(await sut.finished(305, jobId)).toMatchObject({
      status: 'failed',
      failureReason: 'We could not create your avatar after 3 attempts. Your credits were not charged.',
    });
    await settled(jobId);
    expect(await failedEvents(jobId)).toEqual([
      { jobId, userId: 305, holdReference: `generation:${jobId}`, reason: FailureReasons.gaveUp(3) },
    ]);
    expect(await completedEvents(jobId)).toEqual([]);
    expect(modelChecks(305)).toHaveLength(1 + 3);
    expect((await sut.row(jobId))?.attempts).toBe(3);
  });

  it('should fail the job when media refuses its output as an image it cannot keep', async () => {
    await sut.standIns.answer(MediaRpc.storeAvatar, () => {
      throw invalidImage();
    });
    const { jobId } = await sut.generate(306);

    expect(await sut.finished(306, jobId)).toMatchObject({
      status: 'failed',
      failureReason: FailureReasons.invalidOutput(invalidImage().message),
      avatarIds: [],
    });
    await settled(jobId);
    expect(storesFor(jobId)).toHaveLength(1);
    expect(await failedEvents(jobId)).toHaveLength(1);
    expect(await completedEvents(jobId)).toEqual([]);
    expect((await sut.row(jobId))?.attempts).toBe(1);
  });

  it('should skip a job message whose job has already ended, or was never kept', async () => {
    const { jobId } = await sut.generate(307);
    await sut.finished(307, jobId);
    await settled(jobId);
    const before = await sut.row(jobId);

    // A second message for the finished job (a redelivery, an enqueue repeated), and one for no job at all.
    const sequences = [await sut.publishJob(jobId), await sut.publishJob('8b0f7a52-27f4-4f0a-9d64-3c4f3e0c2a11')];
    await waitFor(async () => !(await sut.queued()).some((message) => sequences.includes(message.seq)), {
      what: 'the extra messages taken',
    });
    await sut.published();

    expect(await sut.row(jobId)).toEqual(before);
    expect(await completedEvents(jobId)).toHaveLength(1);
    expect(await failedEvents(jobId)).toEqual([]);
    expect(modelChecks(307)).toHaveLength(2);
    expect(storesFor(jobId)).toHaveLength(1);
  });

  it('should snapshot every job page by page, at the times its events told', async () => {
    await sut.published();
    const jobs = await expectSnapshotPaging(sut.rpc, GenerationRpc.snapshotJobs, (item) => item.jobId);
    const { rows } = await sut.db.query(
      `SELECT envelope FROM generation.outbox WHERE subject LIKE 'events.generation.Generation%' ORDER BY created_at`,
    );
    const told = (jobId: string, name: string) =>
      rows.find(({ envelope }) => envelope.type === `generation.${name}` && envelope.payload.jobId === jobId)?.envelope;
    expect(jobs.map((job) => job.status)).toEqual(expect.arrayContaining(['completed', 'failed']));
    for (const job of jobs) {
      const requested = told(job.jobId, 'GenerationRequested');
      const ended = told(job.jobId, 'GenerationCompleted') ?? told(job.jobId, 'GenerationFailed');
      expect(job).toEqual({
        jobId: requested.payload.jobId,
        userId: requested.payload.userId,
        promptText: requested.payload.promptText,
        numOutputs: requested.payload.numOutputs,
        status: ended ? ended.type.replace('generation.Generation', '').toLowerCase() : 'pending',
        failureReason: ended?.payload.reason ?? null,
        createdAt: requested.occurredAt,
        finishedAt: ended?.occurredAt ?? null,
      });
    }
  });
});
