import type { CustomModel } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import pg from 'pg';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

/** Local trainings finish this long after they start. */
const LOCAL_TRAINING_MS = 1500;

let stack: RunningStack;

/** How many TrainingCompleted and TrainingFailed events training wrote for a model (its outbox). */
async function completionsOf(modelId: number): Promise<{ completed: number; failed: number }> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ subject: string; count: string }>(
      `SELECT subject, count(*) FROM training.outbox WHERE (envelope->'payload'->>'modelId')::int = $1 GROUP BY subject`,
      [modelId],
    );
    const count = (name: string) => Number(rows.find((row) => row.subject.includes(`.${name}.`))?.count ?? 0);
    return { completed: count('TrainingCompleted'), failed: count('TrainingFailed') };
  } finally {
    await client.end();
  }
}
let api: ReturnType<typeof apiClient>;

const modelsOf = async (session: Session) => (await api.call('/api/custom-models', { session })).json as CustomModel[];
const statusOf = async (session: Session, id: number) =>
  (await modelsOf(session)).find((model) => model.id === id)?.status;
const until = (session: Session, id: number, status: CustomModel['status']) =>
  waitFor(async () => (await statusOf(session, id)) === status, { timeoutMs: 30_000, what: `model ${id} ${status}` });

const train = (session: Session, referenceImageIds: number[], triggerWord = 'ada_face') =>
  api.call('/api/train-model', {
    method: 'POST',
    session,
    body: { modelName: 'My first model', triggerWord, referenceImageIds, trainingType: 'flux-lora' },
  });

describe('training a personal model through the gateway (local provider)', () => {
  let ada: Session;
  let bob: Session;
  let adaSelfies: number[];
  let bobSelfies: number[];

  beforeAll(async () => {
    stack = await startTestStack({ LOCAL_TRAINING_MS: String(LOCAL_TRAINING_MS) });
    api = apiClient(stack.url, '198.18.0');
    [ada, bob] = await Promise.all([api.register('ada_trainer'), api.register('bob_trainer')]);
    await api.buyCredits(ada, 'starter'); // 5 + 50 = 55
    adaSelfies = await api.uploadSelfies(ada, 14);
    bobSelfies = await api.uploadSelfies(bob, 12);
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should say the local provider runs', async () => {
    expect((await api.call('/api/inference/config')).json).toEqual({ provider: 'local' });
  });

  it('should refuse what the shared schema refuses, with its messages', async () => {
    expectError(
      await train(ada, adaSelfies.slice(0, 11)),
      400,
      'COMMON.VALIDATION_FAILED',
      'At least 12 reference images required',
    );
    const long = await api.call('/api/train-model', {
      method: 'POST',
      session: ada,
      body: { modelName: 'x', triggerWord: 'ok', referenceImageIds: adaSelfies.slice(0, 12) },
    });
    expectError(long, 400, 'COMMON.VALIDATION_FAILED', 'Model name must be at least 3 characters');
    expect(await modelsOf(ada)).toEqual([]);
  });

  it("should refuse another user's selfies with 404 and hold nothing", async () => {
    expectError(await train(ada, [...adaSelfies.slice(0, 11), bobSelfies[0]!]), 404, 'COMMON.NOT_FOUND');
    expect(await modelsOf(ada)).toEqual([]);
    expect(await api.credits(ada)).toBe(55);
  });

  it('should refuse a training without 30 credits', async () => {
    expectError(await train(bob, bobSelfies), 402, 'BILLING.INSUFFICIENT_CREDITS');
    expect(await modelsOf(bob)).toEqual([]);
    expect(await api.credits(bob)).toBe(5);
  });

  let model: CustomModel;

  it('should train from 12 selfies, refuse a second training meanwhile, and charge 30 credits once done', async () => {
    const started = await train(ada, adaSelfies.slice(0, 12));
    expect(started.status).toBe(201);
    model = started.json as CustomModel;
    expect(model).toMatchObject({ modelName: 'My first model', triggerWord: 'ada_face', trainingType: 'flux-lora' });
    expect(['pending', 'training']).toContain(model.status);
    // Held, not yet spent: the balance a user can spend is 30 lower at once.
    expect(await api.credits(ada)).toBe(25);

    expectError(await train(ada, adaSelfies.slice(2, 14)), 409, 'TRAINING.ALREADY_TRAINING');
    // A selfie a running training uses cannot be deleted.
    expectError(
      await api.call(`/api/uploaded-images/${adaSelfies[0]}`, { method: 'DELETE', session: ada }),
      409,
      'MEDIA.IMAGE_IN_USE',
    );
    expectError(
      await api.call(`/api/custom-models/${model.id}`, { method: 'DELETE', session: ada }),
      409,
      'TRAINING.MODEL_TRAINING',
    );

    await until(ada, model.id, 'completed');
    await waitFor(async () => (await api.credits(ada)) === 25, { what: 'the hold captured' });
    // Captured, not released: the credits stay spent once the saga has settled.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await api.credits(ada)).toBe(25);
    expect(await completionsOf(model.id)).toEqual({ completed: 1, failed: 0 });
  });

  it("should answer 404 for another user's model and change nothing", async () => {
    expectError(
      await api.call(`/api/custom-models/${model.id}`, { method: 'DELETE', session: bob }),
      404,
      'COMMON.NOT_FOUND',
    );
    expect(await modelsOf(bob)).toEqual([]);
    expect(await statusOf(ada, model.id)).toBe('completed');
  });

  it('should cost nothing when the training fails', async () => {
    await api.buyCredits(ada, 'starter'); // 25 + 50 = 75
    const failing = await train(ada, adaSelfies.slice(0, 12), 'fail-training');
    expect(failing.status).toBe(201);
    expect(await api.credits(ada)).toBe(45);
    await until(ada, failing.json.id, 'failed');
    const failed = (await modelsOf(ada)).find((item) => item.id === failing.json.id)!;
    expect(failed.failureReason).toMatch(/fail-training/);
    await waitFor(async () => (await api.credits(ada)) === 75, { what: 'the hold released' });
    expect(await completionsOf(failing.json.id)).toEqual({ completed: 0, failed: 1 });
    // The selfies are free again.
    expect((await api.call(`/api/uploaded-images/${adaSelfies[13]}`, { method: 'DELETE', session: ada })).status).toBe(
      200,
    );
  });

  it('should delete a finished model', async () => {
    expect((await api.call(`/api/custom-models/${model.id}`, { method: 'DELETE', session: ada })).json).toEqual({
      deleted: true,
    });
    expect((await modelsOf(ada)).map((item) => item.id)).not.toContain(model.id);
  });

  it('should resolve a training exactly once when the training service crashes while it runs', async () => {
    await api.buyCredits(bob, 'starter'); // 5 + 50 = 55
    const started = await train(bob, bobSelfies, 'bob_face');
    expect(started.status).toBe(201);
    await stack.crashAndRestart('training');
    await until(bob, started.json.id, 'completed');
    await waitFor(async () => (await api.credits(bob)) === 25, { what: "bob's hold captured" });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await api.credits(bob)).toBe(25);
    expect((await modelsOf(bob)).filter((item) => item.status === 'completed')).toHaveLength(1);
    expect(await completionsOf(started.json.id)).toEqual({ completed: 1, failed: 0 });
  });
});
