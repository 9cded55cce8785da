import type { AvatarsPage, CustomModel, GenerationJob } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, queryDatabase, startTestStack } from './stack-harness.js';

/** Long enough to outlive the ack wait, so heartbeats must keep a running job with its worker. */
const LOCAL_GENERATION_MS = 2_500;
const JOB_ACK_WAIT_MS = 1_500;

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;

const query = <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(stack.databaseUrl, sql, params);

/** How many GenerationCompleted and GenerationFailed events generation wrote for a job (its outbox). */
async function outcomesOf(jobId: string): Promise<{ completed: number; failed: number }> {
  const rows = await query<{ subject: string; count: string }>(
    `SELECT subject, count(*) FROM generation.outbox WHERE envelope->'payload'->>'jobId' = $1 GROUP BY subject`,
    [jobId],
  );
  const count = (name: string) => Number(rows.find((row) => row.subject.includes(`.${name}.`))?.count ?? 0);
  return { completed: count('GenerationCompleted'), failed: count('GenerationFailed') };
}

const generate = (session: Session, body: Record<string, unknown>) =>
  api.call('/api/generate-avatar', { method: 'POST', session, body });

const jobOf = async (session: Session, jobId: string) =>
  (await api.call(`/api/generation-jobs/${jobId}`, { session })).json as GenerationJob;

const finished = (session: Session, jobId: string) =>
  waitFor(
    async () => {
      const job = await jobOf(session, jobId);
      return job.status === 'pending' ? undefined : job;
    },
    { timeoutMs: 60_000, what: `job ${jobId} finished` },
  );

const avatarsOf = async (session: Session) => ((await api.call('/api/avatars', { session })).json as AvatarsPage).items;

/** The worker process that logged the job's attempt. */
function workerRunning(
  jobId: string,
): 'generation-worker-1' | 'generation-worker-2' | 'generation-worker-3' | undefined {
  return (['generation-worker-1', 'generation-worker-2', 'generation-worker-3'] as const).find((worker) =>
    stack.logOf(worker).includes(`Job ${jobId}: attempt`),
  );
}

describe('generating avatars through the gateway (local provider, worker processes)', () => {
  let ada: Session;
  let bob: Session;
  let model: CustomModel;

  beforeAll(async () => {
    stack = await startTestStack(
      {
        LOCAL_TRAINING_MS: '300',
        LOCAL_GENERATION_MS: String(LOCAL_GENERATION_MS),
        JOB_ACK_WAIT_MS: String(JOB_ACK_WAIT_MS),
      },
      { generationWorkers: 3 },
    );
    api = apiClient(stack.url, '198.18.1');
    [ada, bob] = await Promise.all([api.register('ada_generates'), api.register('bob_generates')]);
    await api.buyCredits(ada, 'starter');
    await api.buyCredits(ada, 'starter'); // 5 + 50 + 50 = 105
    const selfies = await api.uploadSelfies(ada, 12);
    model = await api.trainModel(ada, { modelName: 'Ada', triggerWord: 'ada_face' }, selfies);
    await waitFor(async () => (await api.credits(ada)) === 75, { what: 'the training charged' });
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should refuse what the generation schema refuses, with its messages, and queue nothing', async () => {
    expectError(
      await generate(ada, { promptText: '   ', customModelId: model.id, numOutputs: 1 }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Please enter a prompt',
    );
    expectError(
      await generate(ada, { promptText: 'ada_face at the beach', numOutputs: 1 }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Please select a custom model',
    );
    expectError(
      await generate(ada, { promptText: 'ada_face at the beach', customModelId: model.id, numOutputs: 5 }),
      400,
      'COMMON.VALIDATION_FAILED',
      'The number of images must be 1, 2, 3 or 4',
    );
    expectError(await api.call('/api/generation-jobs/not-a-job', { session: ada }), 400, 'COMMON.VALIDATION_FAILED');
    expect((await generate(bob, { promptText: 'x', customModelId: model.id })).status).toBe(404);
    expect((await api.call('/api/generation-jobs', { session: ada })).json).toEqual([]);
    expect((await api.call('/api/generate-avatar', { method: 'POST', body: {} })).status).toBe(401);
    expect(await api.credits(ada)).toBe(75);
  });

  it('should make two avatars from one run, keep them in the gallery and charge 5 credits once', async () => {
    const started = await generate(ada, {
      promptText: 'ada_face, watercolor, golden hour, close-up',
      customModelId: model.id,
      numOutputs: 2,
    });
    expect(started.status).toBe(201);
    const { jobId } = started.json as { jobId: string };
    expect(await api.credits(ada)).toBe(70); // held while it runs

    const job = await finished(ada, jobId);
    expect(job).toMatchObject({ id: jobId, status: 'completed', numOutputs: 2, failureReason: null });
    expect(job.avatarIds).toHaveLength(2);

    const avatars = (await avatarsOf(ada)).filter((avatar) => job.avatarIds.includes(avatar.id));
    expect(avatars).toHaveLength(2);
    for (const avatar of avatars) {
      expect(avatar).toMatchObject({
        promptText: 'ada_face, watercolor, golden hour, close-up',
        customModelId: model.id,
      });
      const image = await api.call(avatar.imageUrl, { session: ada });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\//);
      expect(image.bytes.length).toBeGreaterThan(1_000);
    }
    await waitFor(async () => (await api.credits(ada)) === 70, { what: 'the hold captured' });
    expect(await outcomesOf(jobId)).toEqual({ completed: 1, failed: 0 });
    // Longer than the ack wait, yet one attempt: the worker's heartbeats kept the job.
    expect(
      (await query<{ attempts: number }>(`SELECT attempts FROM generation.generation_jobs WHERE id = $1`, [jobId]))[0]
        ?.attempts,
    ).toBe(1);

    const listed = (await api.call('/api/generation-jobs', { session: ada })).json as GenerationJob[];
    expect(listed.map((item) => item.id)).toEqual([jobId]);
  });

  it('should give the credits back when the provider fails the run', async () => {
    const started = await generate(ada, {
      promptText: 'ada_face fail-generation',
      customModelId: model.id,
      numOutputs: 1,
    });
    expect(started.status).toBe(201);
    const job = await finished(ada, started.json.jobId as string);
    expect(job.status).toBe('failed');
    expect(job.failureReason).toMatch(/Your credits were not charged/);
    await waitFor(async () => (await api.credits(ada)) === 70, { what: 'the hold released' });
    expect(await outcomesOf(job.id)).toEqual({ completed: 0, failed: 1 });
  });

  it("should answer 404 for another person's job or model", async () => {
    const [job] = (await api.call('/api/generation-jobs', { session: ada })).json as GenerationJob[];
    expectError(await api.call(`/api/generation-jobs/${job!.id}`, { session: bob }), 404, 'COMMON.NOT_FOUND');
    expect((await api.call('/api/generation-jobs', { session: bob })).json).toEqual([]);
    expectError(
      await generate(bob, { promptText: 'bob', customModelId: model.id, numOutputs: 1 }),
      404,
      'COMMON.NOT_FOUND',
    );
  });

  it('should redeliver the job of a worker killed mid-job to another worker, and finish it once', async () => {
    const started = await generate(ada, {
      promptText: 'ada_face, oil painting',
      customModelId: model.id,
      numOutputs: 2,
    });
    const jobId = started.json.jobId as string;
    const worker = await waitFor(async () => workerRunning(jobId), { what: 'a worker took the job' });
    await stack.crash(worker);

    const job = await finished(ada, jobId);
    expect(job.status).toBe('completed');
    const retriedBy = (['generation-worker-1', 'generation-worker-2', 'generation-worker-3'] as const).filter(
      (other) => other !== worker && stack.logOf(other).includes(`Job ${jobId}: attempt 2`),
    );
    expect(retriedBy).toHaveLength(1);
    const [row] = await query<{ attempts: number }>(`SELECT attempts FROM generation.generation_jobs WHERE id = $1`, [
      jobId,
    ]);
    expect(row?.attempts).toBe(2);
    const avatars = (await avatarsOf(ada)).filter((avatar) => avatar.promptText === 'ada_face, oil painting');
    expect(avatars.map((avatar) => avatar.id).sort()).toEqual([...job.avatarIds].sort());
    expect(avatars).toHaveLength(2);
    await waitFor(async () => (await api.credits(ada)) === 65, { what: 'one charge' });
    expect(await outcomesOf(jobId)).toEqual({ completed: 1, failed: 0 });
  });

  it('should let a worker finish its job when it is asked to stop (SIGTERM), then exit', async () => {
    const started = await generate(ada, {
      promptText: 'ada_face, pencil sketch',
      customModelId: model.id,
      numOutputs: 1,
    });
    const jobId = started.json.jobId as string;
    const worker = await waitFor(async () => workerRunning(jobId), { what: 'a worker took the job' });
    const child = stack.children.get(worker)!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    stack.expectExit(worker);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const job = await jobOf(ada, jobId);
    expect(job.status).toBe('completed');
    const [row] = await query<{ attempts: number }>(`SELECT attempts FROM generation.generation_jobs WHERE id = $1`, [
      jobId,
    ]);
    expect(row?.attempts).toBe(1);
    await waitFor(async () => (await api.credits(ada)) === 60, { what: 'charged' });
  });

  it('should accept exactly as many concurrent runs as the credits pay for, and never overdraw', async () => {
    // 60 now; one run more brings it to 55 = 11 runs.
    const first = await generate(ada, { promptText: 'ada_face, anime', customModelId: model.id, numOutputs: 1 });
    await finished(ada, first.json.jobId as string);
    await waitFor(async () => (await api.credits(ada)) === 55, { what: '55 credits left' });

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        generate(ada, { promptText: `ada_face, run ${index}`, customModelId: model.id, numOutputs: 1 }),
      ),
    );
    const accepted = results.filter((result) => result.status === 201);
    const refused = results.filter((result) => result.status === 402);
    expect(accepted).toHaveLength(11);
    expect(refused).toHaveLength(9);
    for (const result of refused) expectError(result, 402, 'BILLING.INSUFFICIENT_CREDITS', 'Insufficient credits');
    expect(await api.credits(ada)).toBe(0);

    const jobs = await Promise.all(accepted.map((result) => finished(ada, result.json.jobId as string)));
    expect(jobs.every((job) => job.status === 'completed')).toBe(true);
    // Every hold captured: the balance is spent to zero, never below (a database constraint too).
    const userId = (await api.call('/api/user', { session: ada })).json.id as number;
    await waitFor(
      async () => {
        const [account] = await query<{ balance: number; held: number }>(
          `SELECT balance, held FROM billing.accounts WHERE user_id = $1`,
          [userId],
        );
        return account?.held === 0 && account.balance === 0;
      },
      { what: 'every hold captured' },
    );
    expect(await api.credits(ada)).toBe(0);
    const listed = (await api.call('/api/generation-jobs', { session: ada })).json as GenerationJob[];
    expect(listed.filter((job) => job.promptText.startsWith('ada_face, run '))).toHaveLength(11);
  });
});
