import { readFileSync } from 'node:fs';
import type { AdminSummary, AvatarsPage, GenerationJob } from '@likeness/contracts';
import {
  type NatsServerWithUsers,
  freePort,
  startNatsServerWithUsers,
  testNamespace,
  waitFor,
} from '@likeness/testing';
import { apiClient, cookiesFrom } from './api-client.js';
import { type RunningStack, queryDatabase, startTestStack } from './stack-harness.js';

const ADMIN = { username: 'nats_admin', email: 'nats_admin@example.com', password: 'Start-pass-42' };
const APPS = ['gateway', 'auth', 'billing', 'media', 'training', 'generation', 'generation-worker', 'reporting'];

/**
 * The whole product, every app as its own NATS user on a server with the users and permissions
 * `npm run nats:config` generates (deploy/nats/auth.conf): a user's way from registering through
 * a payment, a training and a generation to an admin's summary and the account's deletion touches
 * every RPC path, event, job and bucket in use, and the server refuses none of it.
 */
describe('the stack with a NATS user per app', () => {
  let nats: NatsServerWithUsers;
  let stack: RunningStack;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    const namespace = testNamespace('natsusers');
    nats = await startNatsServerWithUsers({ namespace, port: await freePort() });
    stack = await startTestStack(
      {
        NATS_URL: nats.url,
        NATS_NAMESPACE: namespace,
        LOCAL_TRAINING_MS: '300',
        LOCAL_GENERATION_MS: '300',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
      { appEnv: Object.fromEntries(APPS.map((app) => [app, nats.credentialsOf(app)])) },
    );
    api = apiClient(stack.url, '198.18.7');
  });

  afterAll(async () => {
    await stack?.shutdown();
    await nats?.stop();
  });

  it('should serve a user from registration to deletion without a refused subject', async () => {
    expect((await api.call('/readyz')).status).toBe(200);
    const ada = await api.register('ada_natsusers');
    await api.buyCredits(ada, 'starter');
    await waitFor(async () => (await api.credits(ada)) === 55, { what: 'the welcome credits and the payment' });

    const selfies = await api.uploadSelfies(ada, 12);
    const model = await api.trainModel(ada, { modelName: 'Ada', triggerWord: 'ada_face' }, selfies);
    await waitFor(async () => (await api.credits(ada)) === 25, { what: 'the training charged' });

    const generated = await api.call('/api/generate-avatar', {
      method: 'POST',
      session: ada,
      body: { promptText: 'a portrait', customModelId: model.id, numOutputs: 1 },
    });
    expect(generated.status).toBe(201);
    const jobId = generated.json.jobId as string;
    const job = await waitFor(
      async () => {
        const current = (await api.call(`/api/generation-jobs/${jobId}`, { session: ada })).json as GenerationJob;
        return current.status === 'pending' ? undefined : current;
      },
      { timeoutMs: 60_000, what: 'the generation job to finish' },
    );
    expect(job.status).toBe('completed');
    expect(((await api.call('/api/avatars', { session: ada })).json as AvatarsPage).items).toHaveLength(1);
    await waitFor(async () => (await api.credits(ada)) === 20, { what: 'the generation charged' });

    const login = await api.call('/api/login', { method: 'POST', body: ADMIN });
    const admin = { cookie: cookiesFrom(login.headers) };
    const summaryOf = async () => (await api.call('/api/admin/summary', { session: admin })).json as AdminSummary;
    // Reporting's read models, built from every service's events.
    await waitFor(async () => {
      const { totalUsers, totalPayments, totalGenerations } = await summaryOf();
      return totalUsers >= 1 && totalPayments === 1 && totalGenerations === 1 ? true : undefined;
    });

    const deleted = await api.call('/api/account', {
      method: 'DELETE',
      session: ada,
      body: { password: 'secret-password' },
    });
    expect(deleted.status).toBe(200);
    expect((await api.call('/api/user', { session: ada })).status).toBe(401);

    // Every service handled the deletion on its own consumer; nothing was refused on the way.
    for (const service of ['billing', 'media', 'training', 'generation', 'reporting']) {
      await waitFor(
        async () => {
          const [row] = await queryDatabase<{ n: string }>(
            stack.databaseUrl,
            `SELECT count(*) AS n FROM ${service}.inbox WHERE consumer = $1`,
            [`${service}-auth-UserDeleted-v1`],
          );
          return Number(row?.n) === 1 || undefined;
        },
        { timeoutMs: 30_000, what: `${service} to handle the deletion` },
      );
    }
    const refused = readFileSync(nats.logFile, 'utf8')
      .split('\n')
      .filter((line) => /Violation|authentication error/.test(line));
    expect(refused).toEqual([]);
  });
});
