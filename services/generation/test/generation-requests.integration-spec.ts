import { setTimeout as sleep } from 'node:timers/promises';
import { BillingRpc, GENERATION_COST, GenerationEvents, TrainingRpc, runGenerationJob } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { JobsService } from '../src/jobs/jobs.service.js';
import { type GenerationUnderTest, startGeneration, withOutboxRefusing } from './generation-harness.js';

/**
 * The request side: a run is paid for before it is queued. Training (the model check) and
 * billing (the 5-credit hold) are asked at once; a refusal by either leaves nothing behind (no
 * job, no event, no queue message, and a hold that was made is given back), and an accepted
 * request commits the job, GenerationRequested and its queue message together. The API role
 * runs alone, so queued messages stay on the queue for the test to read.
 */
describe(JobsService.name, () => {
  let sut: GenerationUnderTest;
  beforeAll(async () => {
    sut = await startGeneration('genrequests', { GENERATION_ROLE: 'api', RPC_TIMEOUT_MS: '1500' });
  });

  afterEach(async () => {
    expect(sut.standIns.malformed).toEqual([]);
    await sut.answerAsUsual();
  });

  afterAll(async () => {
    await sut?.close();
  });

  const holdsAskedFor = (userId: number) =>
    sut.standIns
      .calls(BillingRpc.reserveCredits)
      .filter((call) => call.request.userId === userId)
      .map((call) => call.request.reference);
  const releases = (reference: string) =>
    sut.standIns.calls(BillingRpc.releaseCredits).filter((call) => call.request.reference === reference).length;
  const jobIdOf = (reference: string) => reference.replace(/^generation:/, '');
  const queuedFor = async (jobId: string) =>
    (await sut.queued()).filter((message) => message.payload['jobId'] === jobId);
  const requestedFor = (jobId: string) => sut.eventsOf(GenerationEvents.GenerationRequested, jobId);

  /** Nothing of the request for this hold exists anywhere a caller could see it (nor waits to be published). */
  async function expectNothingKept(userId: number, reference: string): Promise<void> {
    await sut.published();
    expect(await sut.rowsOf(userId)).toEqual([]);
    expect(await requestedFor(jobIdOf(reference))).toEqual([]);
    expect(await queuedFor(jobIdOf(reference))).toEqual([]);
  }

  it('should keep the job, announce GenerationRequested and queue it when the model is ready and the credits are held', async () => {
    const { jobId } = await sut.generate(101, { customModelId: 7, promptText: 'tw7 on a beach', numOutputs: 3 });
    const holdReference = `generation:${jobId}`;

    expect(sut.standIns.calls(TrainingRpc.getRunnableModel).map((call) => call.request)).toContainEqual({
      userId: 101,
      id: 7,
    });
    expect(sut.standIns.calls(BillingRpc.reserveCredits).map((call) => call.request)).toContainEqual({
      userId: 101,
      amount: GENERATION_COST,
      reference: holdReference,
      expiresInSeconds: 6 * 3600,
    });
    expect(await sut.job(101, jobId)).toMatchObject({
      id: jobId,
      customModelId: 7,
      promptText: 'tw7 on a beach',
      numOutputs: 3,
      status: 'pending',
      avatarIds: [],
      failureReason: null,
      completedAt: null,
    });
    expect(await sut.row(jobId)).toMatchObject({
      user_id: 101,
      provider: 'local',
      model_version: 'local:7',
      hold_reference: holdReference,
      prediction_id: null,
      attempts: 0,
    });

    // Committed together with the job, so published once the outbox is empty.
    await sut.published();
    expect(await requestedFor(jobId)).toEqual([
      { jobId, userId: 101, holdReference, customModelId: 7, promptText: 'tw7 on a beach', numOutputs: 3 },
    ]);
    const queued = await queuedFor(jobId);
    expect(queued.map((message) => message.subject)).toEqual([
      `${sut.env.namespace}.${runGenerationJob.subject}.${jobId}`,
    ]);
    expect(queued[0]?.payload).toEqual({ jobId });
    expect(releases(holdReference)).toBe(0);
  });

  it.each([
    ['COMMON.NOT_FOUND', 404, 'That model was not found.'],
    ['TRAINING.MODEL_NOT_READY', 409, 'That model is still training. Try again once it is ready.'],
  ] as const)(
    'should give the hold back and keep nothing when training refuses the model (%s)',
    async (code, status, message) => {
      const userId = status === 404 ? 102 : 103;
      await sut.standIns.answer(TrainingRpc.getRunnableModel, () => {
        throw new DomainError(code, message);
      });

      await expect(sut.generate(userId)).rejects.toMatchObject({ code, status, message });

      const [reference] = holdsAskedFor(userId);
      expect(reference).toMatch(/^generation:[0-9a-f-]{36}$/);
      expect(releases(reference!)).toBe(1);
      await expectNothingKept(userId, reference!);
    },
  );

  it('should keep nothing and release nothing when billing refuses for want of credits', async () => {
    await sut.standIns.answer(BillingRpc.reserveCredits, () => {
      throw new DomainError('BILLING.INSUFFICIENT_CREDITS', 'You need 5 credits to generate avatars.');
    });

    await expect(sut.generate(104)).rejects.toMatchObject({
      code: 'BILLING.INSUFFICIENT_CREDITS',
      status: 402,
      message: 'You need 5 credits to generate avatars.',
    });

    const [reference] = holdsAskedFor(104);
    // No hold was made, so there is none to give back.
    expect(releases(reference!)).toBe(0);
    await expectNothingKept(104, reference!);
  });

  it("should answer with the model's refusal when training and billing both refuse", async () => {
    await sut.standIns.answer(TrainingRpc.getRunnableModel, () => {
      throw new DomainError('COMMON.NOT_FOUND', 'That model was not found.');
    });
    await sut.standIns.answer(BillingRpc.reserveCredits, () => {
      throw new DomainError('BILLING.INSUFFICIENT_CREDITS', 'You need 5 credits to generate avatars.');
    });

    await expect(sut.generate(105)).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND', status: 404 });

    const [reference] = holdsAskedFor(105);
    expect(releases(reference!)).toBe(0);
    await expectNothingKept(105, reference!);
  });

  it('should give the hold back when billing does not answer in time (it may have held the credits)', async () => {
    await sut.standIns.answer(BillingRpc.reserveCredits, async ({ reference, amount }) => {
      await sleep(2_500);
      return { reference, amount, status: 'held' as const, available: 0 };
    });

    await expect(sut.generate(106)).rejects.toMatchObject({ code: 'COMMON.SERVICE_UNAVAILABLE', status: 503 });

    const [reference] = holdsAskedFor(106);
    expect(releases(reference!)).toBe(1);
    await expectNothingKept(106, reference!);
  });

  it('should give the hold back and keep nothing when the job cannot be written after both said yes', async () => {
    // The queue message is the transaction's last write: refusing it must undo the job and its event too.
    await withOutboxRefusing(sut.db, `NEW.subject LIKE 'jobs.%'`, () =>
      expect(sut.generate(107)).rejects.toMatchObject({
        code: 'COMMON.INTERNAL',
        status: 500,
        message: 'Something went wrong on our side. Please try again.',
      }),
    );

    const [reference] = holdsAskedFor(107);
    expect(sut.standIns.calls(TrainingRpc.getRunnableModel).some((call) => call.request.userId === 107)).toBe(true);
    expect(releases(reference!)).toBe(1);
    await expectNothingKept(107, reference!);
  });

  it('should queue exactly the requests billing holds credits for when 20 race on one account', async () => {
    // Billing's stand-in holds 5 credits at a time out of 50, as the ledger does: 10 of 20 fit.
    let available = 50;
    await sut.standIns.answer(BillingRpc.reserveCredits, async ({ reference, amount }) => {
      await sleep(Math.random() * 20);
      if (available < amount) {
        throw new DomainError('BILLING.INSUFFICIENT_CREDITS', 'You need 5 credits to generate avatars.');
      }
      available -= amount;
      return { reference, amount, status: 'held' as const, available };
    });
    await sut.standIns.answer(TrainingRpc.getRunnableModel, async ({ id }) => {
      await sleep(Math.random() * 20);
      return sut.runnableModel(id);
    });

    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => sut.generate(108, { promptText: `tw7 number ${index}` })),
    );

    const accepted = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.jobId] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const reason of refused) expect(reason).toMatchObject({ code: 'BILLING.INSUFFICIENT_CREDITS', status: 402 });

    const rows = await sut.rowsOf(108);
    expect(rows.map((row) => row.id).sort()).toEqual([...accepted].sort());
    expect(rows.every((row) => row.status === 'pending' && row.hold_reference === `generation:${row.id}`)).toBe(true);

    await sut.published();
    const requested = (await sut.eventsOf(GenerationEvents.GenerationRequested)).filter(
      (event) => event.userId === 108,
    );
    expect(requested.map((event) => event.jobId).sort()).toEqual([...accepted].sort());
    const queued = (await sut.queued()).map((message) => message.payload['jobId'] as string);
    for (const jobId of accepted) expect(queued.filter((queuedId) => queuedId === jobId)).toHaveLength(1);
    for (const reference of holdsAskedFor(108)) {
      if (!accepted.includes(jobIdOf(reference))) expect(queued).not.toContain(jobIdOf(reference));
    }
    // Refused holds were never made; accepted ones are kept for their jobs.
    expect(
      sut.standIns
        .calls(BillingRpc.releaseCredits)
        .filter((call) => holdsAskedFor(108).includes(call.request.reference)),
    ).toEqual([]);
  });
});
