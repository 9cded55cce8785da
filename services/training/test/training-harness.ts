import { rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BillingRpc,
  type CustomModel,
  type ErrorBody,
  GenerationRpc,
  type TrainModelRequest,
  TrainingRpc,
  type UploadSelfiesResponse,
} from '@likeness/contracts';
import {
  INTERNAL_AUTH_HEADER,
  INTERNAL_USER_HEADER,
  type ServiceConfig,
  type ServiceDefinition,
  createServiceApp,
  internalAuthToken,
  loadConfig,
  runMigrations,
} from '@likeness/nest-kit';
import {
  type TestServiceEnvironment,
  createTestRpcClient,
  createTestServiceEnvironment,
  tempDir,
  waitFor,
} from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
// The saga's other two ends run beside training, in process, as they do beside it in production.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { billingService } from '../../billing/src/billing.service-definition.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mediaService } from '../../media/src/media.service-definition.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { jpeg } from '../../media/test/test-images.js';
import { trainingService } from '../src/training.service-definition.js';

const SUCCESS_CARD = '4242424242424242';

export interface SagaUnderTest {
  env: TestServiceEnvironment;
  billing: NestFastifyApplication;
  media: NestFastifyApplication;
  /** The running training app (replaced by `restartTraining`). */
  training(): NestFastifyApplication;
  rpc: Awaited<ReturnType<typeof createTestRpcClient>>['rpc'];
  db: pg.Pool;
  /** Training's environment beyond the shared one, as last started. */
  trainingEnv: Record<string, string>;
  /** Stops training (draining, as on SIGTERM) and starts a new instance on the same database. */
  restartTraining(extraEnv?: Record<string, string>): Promise<void>;
  stopTraining(): Promise<void>;
  startTraining(extraEnv?: Record<string, string>): Promise<void>;
  /** Opens the account (5 welcome credits) and buys the 50-credit Starter Pack `packs` times. */
  fund(userId: number, packs?: number): Promise<number>;
  available(userId: number): Promise<number>;
  /** Uploads `count` selfies through media's internal HTTP route, as the gateway streams them. */
  uploadSelfies(userId: number, count: number): Promise<number[]>;
  train(userId: number, imageIds: number[], overrides?: Partial<TrainModelRequest>): Promise<CustomModel>;
  model(id: number): Promise<ModelRow>;
  waitForStatus(id: number, status: string, timeoutMs?: number): Promise<ModelRow>;
  /** Events training put in its outbox (what it announced), by name, for one model. */
  eventsOf(modelId: number, name: 'TrainingStarted' | 'TrainingCompleted' | 'TrainingFailed'): Promise<number>;
  /** Selfies of the model media still holds locked. */
  locksOf(modelId: number): Promise<number>;
  holdOf(reference: string): Promise<{ status: string; amount: number } | undefined>;
  /** How many times billing charged the reference. */
  capturesOf(reference: string): Promise<number>;
  close(): Promise<void>;
}

export interface ModelRow {
  id: number;
  user_id: number;
  status: string;
  hold_reference: string;
  training_job_id: string | null;
  provider_model: string | null;
  version: string | null;
  failure_reason: string | null;
  image_keys: string[];
}

async function startApp<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  env: Record<string, string>,
): Promise<NestFastifyApplication> {
  const config = loadConfig(definition.configSchema, env);
  await runMigrations(definition.database(config));
  return createServiceApp(definition, config);
}

/**
 * The training saga's three ends in process on one database and NATS namespace: training (the
 * local provider unless Replicate settings are given), billing (local payments) and media (local
 * files).
 */
export async function startSaga(
  label: string,
  trainingEnv: Record<string, string> = {},
  mediaEnv: Record<string, string> = {},
): Promise<SagaUnderTest> {
  const env = await createTestServiceEnvironment(label);
  const dataDir = tempDir(`training-${label}`);
  const billing = await startApp(billingService, env.env);
  const media = await startApp(mediaService, { ...env.env, DATA_DIR: dataDir, ...mediaEnv });
  const mediaUrl = await media.getUrl();
  let currentTrainingEnv = trainingEnv;
  let training: NestFastifyApplication | undefined = await startApp(trainingService, {
    ...env.env,
    ...currentTrainingEnv,
  });
  const client = await createTestRpcClient(env.natsUrl, env.namespace, 30_000);
  const rpc = client.rpc;
  const db = new pg.Pool({ connectionString: env.database.url, max: 4 });
  const internalToken = internalAuthToken(env.env['MEDIA_SECRET'] ?? '');

  const stopTraining = async () => {
    await training?.close();
    training = undefined;
  };
  const startTraining = async (extraEnv: Record<string, string> = {}) => {
    currentTrainingEnv = { ...currentTrainingEnv, ...extraEnv };
    training = await startApp(trainingService, { ...env.env, ...currentTrainingEnv });
  };
  const model = async (id: number) =>
    (await db.query<ModelRow>(`SELECT * FROM training.custom_models WHERE id = $1`, [id])).rows[0]!;

  const saga: SagaUnderTest = {
    env,
    billing,
    media,
    training: () => {
      if (!training) throw new Error('Training is not running');
      return training;
    },
    rpc,
    db,
    get trainingEnv() {
      return currentTrainingEnv;
    },
    restartTraining: async (extraEnv) => {
      await stopTraining();
      await startTraining(extraEnv);
    },
    stopTraining,
    startTraining,
    fund: async (userId, packs = 1) => {
      await rpc.call(BillingRpc.openAccount, { userId });
      for (let pack = 0; pack < packs; pack += 1) {
        const intent = await rpc.call(BillingRpc.createPaymentIntent, { userId, packageId: 'starter' });
        await rpc.call(BillingRpc.confirmLocalPayment, {
          userId,
          paymentIntentId: intent.paymentIntentId,
          cardNumber: SUCCESS_CARD,
        });
      }
      return saga.available(userId);
    },
    available: async (userId) => (await rpc.call(BillingRpc.getBalance, { userId })).available,
    uploadSelfies: async (userId, count) => {
      const form = new FormData();
      for (let index = 0; index < count; index += 1) {
        const bytes = await jpeg(512, 512, userId * 31 + index);
        form.append('selfies', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `s${index}.jpg`);
      }
      const response = await fetch(`${mediaUrl}/internal/selfies`, {
        method: 'POST',
        body: form,
        headers: { [INTERNAL_AUTH_HEADER]: internalToken, [INTERNAL_USER_HEADER]: String(userId) },
      });
      if (response.status !== 201) throw new Error(`Upload answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as UploadSelfiesResponse).uploadedFiles.map((file) => file.id);
    },
    train: (userId, imageIds, overrides = {}) =>
      rpc.call(TrainingRpc.trainModel, {
        userId,
        modelName: `Model of ${userId}`,
        triggerWord: `tw${userId}`,
        referenceImageIds: imageIds,
        ...overrides,
      }),
    model,
    waitForStatus: (id, status, timeoutMs = 15_000) =>
      waitFor(
        async () => {
          const row = await model(id);
          return row?.status === status ? row : undefined;
        },
        { what: `model ${id} to be ${status}`, timeoutMs },
      ),
    eventsOf: async (modelId, name) =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM training.outbox WHERE subject = $1 AND (envelope->'payload'->>'modelId')::int = $2`,
          [`events.training.${name}.v1`, modelId],
        )
      ).rows[0]!.n,
    locksOf: async (modelId) =>
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM media.training_locks WHERE model_id = $1`, [
          modelId,
        ])
      ).rows[0]!.n,
    holdOf: async (reference) =>
      (
        await db.query<{ status: string; amount: number }>(
          `SELECT status, amount FROM billing.holds WHERE reference = $1`,
          [reference],
        )
      ).rows[0],
    capturesOf: async (reference) =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM billing.ledger_entries WHERE idempotency_key = $1 AND account LIKE 'user:%'`,
          [`capture:${reference}`],
        )
      ).rows[0]!.n,
    close: async () => {
      await client.close();
      await db.end();
      await training?.close();
      await media.close();
      await billing.close();
      await env.database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return saga;
}

/** The error an RPC call was refused with, in the contract's shape. */
export async function refusal(call: Promise<unknown>): Promise<ErrorBody> {
  try {
    await call;
  } catch (error) {
    const { status, code, message } = error as ErrorBody;
    return { status, code, message };
  }
  throw new Error('The call was expected to be refused');
}

/**
 * Plays the gateway's part for Replicate's webhooks: an HTTP server that takes the POST as
 * Replicate sends it and hands the raw body and headers over NATS to training, or to generation
 * when the URL names a job (a prediction's).
 */
export async function startWebhookRelay(
  rpcOf: () => SagaUnderTest['rpc'],
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const url = new URL(request.url ?? '/', 'http://relay');
      const model = url.searchParams.get('model');
      const job = url.searchParams.get('job');
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const delivery = {
        payload: Buffer.concat(chunks).toString('utf8'),
        headers: {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        },
      };
      try {
        // Routed as the gateway routes them: a prediction's names its generation job.
        const answer = job
          ? await rpcOf().call(GenerationRpc.handlePredictionWebhook, { ...delivery, jobId: job })
          : await rpcOf().call(TrainingRpc.handleReplicateWebhook, {
              ...delivery,
              ...(model ? { modelId: Number(model) } : {}),
            });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      } catch (error) {
        const body = error as ErrorBody;
        response.writeHead(body.status ?? 500, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
