import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACCOUNT_DELETED_MESSAGE,
  type AvatarsPage,
  type GenerationJob,
  type UploadedImage,
  WRONG_PASSWORD_MESSAGE,
} from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, queryDatabase, startTestStack } from './stack-harness.js';

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;

const query = <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(stack.databaseUrl, sql, params);

/** What each service still holds for a user, read from its own schema. */
async function holdingsOf(userId: number) {
  type Counts = Record<'selfies' | 'avatars' | 'locks' | 'models' | 'jobs' | 'openHolds' | 'held' | 'reported', number>;
  const [row] = await query<Counts>(
    `SELECT
       (SELECT count(*) FROM media.uploaded_images WHERE user_id = $1)::int AS selfies,
       (SELECT count(*) FROM media.avatars WHERE user_id = $1)::int AS avatars,
       (SELECT count(*) FROM media.training_locks WHERE user_id = $1)::int AS locks,
       (SELECT count(*) FROM training.custom_models WHERE user_id = $1)::int AS models,
       (SELECT count(*) FROM generation.generation_jobs WHERE user_id = $1)::int AS jobs,
       (SELECT count(*) FROM billing.holds WHERE user_id = $1 AND status = 'held')::int AS "openHolds",
       (SELECT coalesce(held, 0) FROM billing.accounts WHERE user_id = $1)::int AS held,
       (SELECT count(*) FROM reporting.users WHERE id = $1)::int AS reported`,
    [userId],
  );
  return { ...row!, objects: await objectsOf(userId) };
}

const NOTHING = {
  selfies: 0,
  avatars: 0,
  locks: 0,
  models: 0,
  jobs: 0,
  openHolds: 0,
  held: 0,
  reported: 0,
  objects: 0,
};

/** Files under the user's prefix in the stack's local storage. */
async function objectsOf(userId: number): Promise<number> {
  try {
    const entries = await readdir(join(stack.env['DATA_DIR']!, 'objects', 'users', String(userId)), {
      recursive: true,
      withFileTypes: true,
    });
    return entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.meta.json')).length;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** Every service has erased the user: media's objects too (its purge job records when it is done). */
const erased = (userId: number, timeoutMs = 30_000) =>
  waitFor(
    async () => {
      const [purged] = await query(
        `SELECT 1 FROM media.erased_users WHERE user_id = $1 AND objects_purged_at IS NOT NULL`,
        [userId],
      );
      const [closed] = await query(`SELECT 1 FROM billing.accounts WHERE user_id = $1 AND closed_at IS NOT NULL`, [
        userId,
      ]);
      const [gone] = await query(`SELECT 1 FROM reporting.deleted_users WHERE user_id = $1`, [userId]);
      if (!purged || !closed || !gone) return undefined;
      const holdings = await holdingsOf(userId);
      return JSON.stringify(holdings) === JSON.stringify(NOTHING) ? holdings : undefined;
    },
    { timeoutMs, what: `every service to erase user ${userId}` },
  );

const userIdOf = async (session: Session) => (await api.call('/api/user', { session })).json.id as number;

const deleteAccount = (session: Session, password: unknown) =>
  api.call('/api/account', { method: 'DELETE', session, body: { password } });

/** A person with 12 selfies, a trained model and a job's avatars. */
async function personWithEverything(username: string) {
  const session = await api.register(username);
  await api.buyCredits(session, 'starter'); // 5 + 50
  const selfieIds = await api.uploadSelfies(session, 12);
  const model = await api.trainModel(session, { modelName: username, triggerWord: `${username}_face` }, selfieIds);
  const generated = await api.call('/api/generate-avatar', {
    method: 'POST',
    session,
    body: { promptText: `${username}_face on a mountain`, customModelId: model.id, numOutputs: 2 },
  });
  expect(generated.status).toBe(201);
  const jobId = generated.json.jobId as string;
  await waitFor(
    async () =>
      ((await api.call(`/api/generation-jobs/${jobId}`, { session })).json as GenerationJob).status === 'completed',
    { timeoutMs: 30_000, what: `${username}'s job completed` },
  );
  const avatars = ((await api.call('/api/avatars', { session })).json as AvatarsPage).items;
  const selfies = (await api.call('/api/uploaded-images', { session })).json as UploadedImage[];
  expect(avatars).toHaveLength(2);
  const userId = await userIdOf(session);
  // Billing charges the held credits when it hears the job completed, a moment after the job says so.
  await waitFor(async () => (await holdingsOf(userId)).openHolds === 0, {
    timeoutMs: 30_000,
    what: `${username}'s held credits charged`,
  });
  return { session, userId, model, avatars, selfies };
}

const linksOf = (person: Awaited<ReturnType<typeof personWithEverything>>) => [
  person.selfies[0]!.imageUrl,
  person.selfies[1]!.thumbnailUrl,
  person.avatars[0]!.imageUrl,
  person.avatars[1]!.thumbnailUrl,
  person.avatars[0]!.shareUrl,
];

const statusOf = async (url: string) => (await api.call(url)).status;

describe('deleting an account through the gateway', () => {
  beforeAll(async () => {
    stack = await startTestStack({ LOCAL_TRAINING_MS: '300', LOCAL_GENERATION_MS: '300' });
    api = apiClient(stack.url, '198.18.7');
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should erase everything the user had in every service, release the queued job, and leave others alone', async () => {
    const [ada, bob] = await Promise.all([personWithEverything('ada_leaves'), personWithEverything('bob_stays')]);
    const bobBefore = await holdingsOf(bob.userId);
    // A job that waits in the queue with its credits held: no worker runs while the account goes.
    await stack.crash('generation-worker-1');
    const queued = await api.call('/api/generate-avatar', {
      method: 'POST',
      session: ada.session,
      body: { promptText: 'ada_leaves_face in the rain', customModelId: ada.model.id, numOutputs: 1 },
    });
    expect(queued.status).toBe(201);
    expect(await holdingsOf(ada.userId)).toMatchObject({ selfies: 12, avatars: 2, models: 1, jobs: 2, openHolds: 1 });
    for (const link of linksOf(ada)) expect(await statusOf(link)).toBe(200);

    // A wrong password changes nothing and names the field.
    const refused = await deleteAccount(ada.session, 'not-my-password');
    expectError(refused, 403, 'AUTH.WRONG_PASSWORD', WRONG_PASSWORD_MESSAGE);
    expect(refused.json.issues).toEqual([{ path: 'password', message: WRONG_PASSWORD_MESSAGE }]);
    expectError(await deleteAccount(ada.session, ''), 400, 'COMMON.VALIDATION_FAILED', 'Password is required');
    expect((await api.call('/api/user', { session: ada.session })).status).toBe(200);

    const deleted = await deleteAccount(ada.session, 'secret-password');
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ message: ACCOUNT_DELETED_MESSAGE });
    // The browser is signed out, and the old cookies open nothing.
    const cleared = deleted.headers.getSetCookie().filter((cookie) => cookie.includes('Max-Age=0'));
    expect(cleared.map((cookie) => cookie.split('=', 1)[0]).sort()).toEqual(['likeness_access', 'likeness_refresh']);
    expectError(await api.call('/api/user', { session: ada.session }), 401, 'AUTH.UNAUTHENTICATED');
    expect((await api.call('/api/avatars', { session: ada.session })).status).toBe(401);

    expect(await erased(ada.userId)).toEqual(NOTHING);
    for (const link of linksOf(ada)) expect(await statusOf(link)).toBe(404);
    const [hold] = await query<{ status: string }>(`SELECT status FROM billing.holds WHERE reference = $1`, [
      `generation:${queued.json.jobId}`,
    ]);
    expect(hold).toEqual({ status: 'released' });

    // No way back in; the name and the address are free again.
    for (const username of ['ada_leaves', 'ada_leaves@example.com']) {
      const login = await api.call('/api/login', { method: 'POST', body: { username, password: 'secret-password' } });
      expectError(login, 401, 'AUTH.INVALID_CREDENTIALS');
    }
    const again = await api.register('ada_leaves');
    const newId = await userIdOf(again);
    expect(newId).not.toBe(ada.userId);
    expect(await api.credits(again)).toBe(5);
    expect((await api.call('/api/uploaded-images', { session: again })).json).toEqual([]);

    // The worker comes back: the deleted user's queued job is dropped, the others' work goes on.
    await stack.start('generation-worker-1');
    const bobJob = await api.call('/api/generate-avatar', {
      method: 'POST',
      session: bob.session,
      body: { promptText: 'bob_stays_face at sea', customModelId: bob.model.id, numOutputs: 1 },
    });
    await waitFor(
      async () =>
        ((await api.call(`/api/generation-jobs/${bobJob.json.jobId}`, { session: bob.session })).json as GenerationJob)
          .status === 'completed',
      { timeoutMs: 30_000, what: "bob's job after the worker came back" },
    );
    expect(await holdingsOf(ada.userId)).toEqual(NOTHING);

    // Bob has everything he had, and one avatar more, once billing has charged the new job.
    await waitFor(async () => (await holdingsOf(bob.userId)).openHolds === 0, {
      timeoutMs: 30_000,
      what: "bob's held credits charged",
    });
    expect(await holdingsOf(bob.userId)).toEqual({ ...bobBefore, avatars: 3, jobs: 2, objects: bobBefore.objects + 2 });
    for (const link of linksOf(bob)) expect(await statusOf(link)).toBe(200);
    expect((await api.call('/api/custom-models', { session: bob.session })).json).toHaveLength(1);
  });

  it('should let a service that was down when the account went erase it once it is back', async () => {
    const carol = await api.register('carol_leaves');
    await api.uploadSelfies(carol, 3);
    const userId = await userIdOf(carol);
    const selfies = (await api.call('/api/uploaded-images', { session: carol })).json as UploadedImage[];

    await stack.crash('media');
    const deleted = await deleteAccount(carol, 'secret-password');
    expect(deleted.status).toBe(200);
    expectError(await api.call('/api/user', { session: carol }), 401, 'AUTH.UNAUTHENTICATED');
    // The others erase at once; media's part waits for media.
    await waitFor(
      async () => (await query(`SELECT 1 FROM reporting.deleted_users WHERE user_id = $1`, [userId])).length > 0,
      {
        what: 'reporting to drop carol',
      },
    );
    expect(await holdingsOf(userId)).toMatchObject({ selfies: 3, objects: 6 });

    await stack.start('media');
    expect(await erased(userId)).toEqual(NOTHING);
    for (const selfie of selfies) expect(await statusOf(selfie.imageUrl)).toBe(404);
  });
});
