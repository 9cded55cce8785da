import type { CustomModel, GenerationJob } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, startTestStack } from './stack-harness.js';

const STANDARD_JOBS = 16;
const PRIORITY_JOBS = 10;

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;

/** The jobs in the order the one worker slot started them (its log). */
function startOrder(jobIds: readonly string[]): string[] {
  const log = stack.logOf('generation-worker-1');
  return jobIds
    .map((jobId) => ({ jobId, at: log.indexOf(`Job ${jobId}: attempt 1 started`) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ jobId }) => jobId);
}

async function queue(session: Session, model: CustomModel, count: number): Promise<string[]> {
  const jobIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = await api.call('/api/generate-avatar', {
      method: 'POST',
      session,
      body: { promptText: `${model.triggerWord} portrait ${index}`, customModelId: model.id, numOutputs: 1 },
    });
    expect(started.status).toBe(201);
    jobIds.push((started.json as { jobId: string }).jobId);
  }
  return jobIds;
}

describe('priority generation for a recent Professional Pack (one worker slot)', () => {
  let standardUser: Session;
  let professional: Session;
  let standardModel: CustomModel;
  let professionalModel: CustomModel;

  beforeAll(async () => {
    stack = await startTestStack(
      { LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '400', WORKER_CONCURRENCY: '1' },
      { generationWorkers: 1 },
    );
    api = apiClient(stack.url, '198.18.7');
    [standardUser, professional] = await Promise.all([api.register('sam_standard'), api.register('pia_priority')]);
    for (let pack = 0; pack < 3; pack += 1) await api.buyCredits(standardUser, 'starter');
    await api.buyCredits(professional, 'professional');
    const [standardSelfies, professionalSelfies] = await Promise.all([
      api.uploadSelfies(standardUser, 12),
      api.uploadSelfies(professional, 12),
    ]);
    [standardModel, professionalModel] = await Promise.all([
      api.trainModel(standardUser, { modelName: 'Sam', triggerWord: 'sam_face' }, standardSelfies),
      api.trainModel(professional, { modelName: 'Pia', triggerWord: 'pia_face' }, professionalSelfies),
    ]);
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should start a priority job next behind a backlog of standard jobs, and keep standard jobs moving', async () => {
    const standard = await queue(standardUser, standardModel, STANDARD_JOBS);
    const priority = await queue(professional, professionalModel, PRIORITY_JOBS);
    const startedBeforePriority = startOrder(standard).length;
    expect(startedBeforePriority).toBeLessThan(STANDARD_JOBS - 3);

    const all = [...standard, ...priority];
    for (const [session, jobIds] of [
      [standardUser, standard],
      [professional, priority],
    ] as const) {
      for (const jobId of jobIds) {
        await waitFor(
          async () => {
            const job = (await api.call(`/api/generation-jobs/${jobId}`, { session })).json as GenerationJob;
            return job.status === 'completed';
          },
          { timeoutMs: 60_000, what: `job ${jobId} completed` },
        );
      }
    }

    const order = startOrder(all);
    expect(order).toHaveLength(all.length);
    const firstPriority = order.findIndex((jobId) => priority.includes(jobId));
    const lastPriority = order.findLastIndex((jobId) => priority.includes(jobId));
    // Queued behind a backlog, the first priority job waits for what already ran, at most one
    // standard job's turn (the standard lane's one pull in ten), and nothing else.
    expect(firstPriority).toBeLessThanOrEqual(startedBeforePriority + 1);
    // Every priority job ran before the standard backlog was done...
    expect(lastPriority).toBeLessThan(all.length - 1);
    // ...and standard jobs still started while priority work waited.
    const duringPriority = order.slice(firstPriority, lastPriority + 1);
    expect(duringPriority.some((jobId) => standard.includes(jobId))).toBe(true);
  });
});
