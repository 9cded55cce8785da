import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { freePort, waitFor } from '@likeness/testing';
import { apiClient, type Session } from './api-client.js';
import { openEventStream } from './sse-client.js';
import { type RunningStack, queryDatabase, startTestStack } from './stack-harness.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;
let session: Session;
let modelId: number;

beforeAll(async () => {
  const port = await freePort();
  stack = await startTestStack(
    { LOCAL_TRAINING_MS: '500', LOCAL_GENERATION_MS: '300' },
    {
      port,
      appEnv: {
        generation: {
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          REPLICATE_WEBHOOK_SECRET: SECRET,
          // Out of the tests' reach: only a webhook can end a job in time.
          PREDICTION_SAFETY_POLL_MS: '600000',
        },
      },
    },
  );
  api = apiClient(stack.url);
  session = await api.register('hook_hana');
  await api.buyCredits(session, 'starter');
  const model = await api.trainModel(
    session,
    { modelName: 'Hana hooks', triggerWord: 'hana_face' },
    await api.uploadSelfies(session, 12),
  );
  modelId = model.id;
}, 240_000);

afterAll(async () => {
  await stack?.shutdown();
});

/** A webhook signed as Replicate signs them (written apart from the adapter's signing, so each checks the other). */
function signed(body: string, secret = SECRET): Record<string, string> {
  const id = `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

const deliver = (jobId: string, body: string, headers: Record<string, string>) =>
  api.call(`/api/webhooks/replicate?job=${jobId}`, { method: 'POST', body: JSON.parse(body), headers });

async function generate(promptText: string): Promise<string> {
  const started = await api.call('/api/generate-avatar', {
    method: 'POST',
    session,
    body: { customModelId: modelId, promptText, numOutputs: 1 },
  });
  expect(started.status).toBe(201);
  return started.json.jobId as string;
}

const job = async (jobId: string) => (await api.call(`/api/generation-jobs/${jobId}`, { session })).json;

async function predictionOf(jobId: string): Promise<string> {
  return waitFor(
    async () =>
      (
        await queryDatabase<{ prediction_id: string | null }>(
          stack.databaseUrl,
          `SELECT prediction_id FROM generation.generation_jobs WHERE id = $1`,
          [jobId],
        )
      )[0]?.prediction_id ?? undefined,
    { what: `job ${jobId}'s prediction` },
  );
}

it("ends a job from the local generator's signed webhook, and the live stream tells the browser", async () => {
  const stream = await openEventStream(stack.url, { cookie: session.cookie });
  await waitFor(async () => stream.comments.includes('connected'), { what: 'the stream open' });
  const jobId = await generate('hana_face by the sea');

  const completed = await waitFor(
    async () =>
      stream.messages.find(
        (message) => message.event === 'generation.completed' && JSON.parse(message.data).jobId === jobId,
      ),
    { what: 'generation.completed on the stream', timeoutMs: 30_000 },
  );
  expect(JSON.parse(completed.data).avatarIds).toHaveLength(1);
  expect(await job(jobId)).toMatchObject({ status: 'completed' });
  stream.abort();
});

it('ends a job once however often, and however concurrently, its webhook comes', async () => {
  const before = await api.credits(session);
  const jobId = await generate('hana_face, told three times');
  const body = JSON.stringify({ id: await predictionOf(jobId), status: 'succeeded' });

  const answers = await Promise.all([1, 2, 3].map(() => deliver(jobId, body, signed(body))));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  const done = await waitFor(async () => ((await job(jobId)).status === 'completed' ? job(jobId) : undefined), {
    what: 'the job completed',
    timeoutMs: 30_000,
  });
  expect(done.avatarIds).toHaveLength(1);
  expect((await deliver(jobId, body, signed(body))).status).toBe(200);

  await waitFor(async () => (await api.credits(session)) === before - 5, { what: 'the 5 credits charged' });
  const charges = await queryDatabase<{ amount: number }>(
    stack.databaseUrl,
    `SELECT amount FROM billing.ledger_entries WHERE account LIKE 'user:%' AND idempotency_key = $1`,
    [`capture:generation:${jobId}`],
  );
  expect(charges).toEqual([{ amount: -5 }]);
  const avatars = await queryDatabase<{ id: number }>(
    stack.databaseUrl,
    `SELECT id FROM media.avatars WHERE source_ref LIKE $1`,
    [`generation:${jobId}:%`],
  );
  expect(avatars.map((avatar) => avatar.id)).toEqual(done.avatarIds);
});

it('refuses a webhook that is not signed with our secret, and changes nothing', async () => {
  const jobId = await generate('hana_face, forged');
  const body = JSON.stringify({ id: await predictionOf(jobId), status: 'succeeded' });

  const forged = await deliver(jobId, body, signed(body, `whsec_${randomBytes(32).toString('base64')}`));
  expect(forged.status).toBe(400);
  expect(forged.json).toMatchObject({
    code: 'GENERATION.WEBHOOK_INVALID',
    message: 'The webhook signature does not match.',
  });
  const unsigned = await deliver(jobId, body, {});
  expect(unsigned.status).toBe(400);
  expect((await deliver('not-a-job', body, signed(body))).status).toBe(400);
  expect(stack.logOf('generation')).toContain('Refused a prediction webhook: bad-signature');
});
