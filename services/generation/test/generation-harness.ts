import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Avatar,
  BillingRpc,
  EVENTS_STREAM,
  type EventDefinition,
  type EventPayload,
  type GenerationJob as GenerationJobView,
  GenerationRpc,
  JOBS_STREAM,
  jobMessageSubject,
  MediaRpc,
  type RpcRequestInput,
  type RpcResponseInput,
  TrainingRpc,
  runGenerationJob,
} from '@likeness/contracts';
import {
  DomainError,
  createServiceApp,
  loadConfig,
  namespaced,
  namespacedStream,
  runMigrations,
} from '@likeness/nest-kit';
import { LocalObjectStorage } from '@likeness/storage';
import {
  type ReplicateStandIn,
  type TestServiceEnvironment,
  createTestRpcClient,
  createTestServiceEnvironment,
  tempDir,
  waitFor,
} from '@likeness/testing';
import { type JetStreamManager, type StoredMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import sharp from 'sharp';
import { generationService } from '../src/generation.service-definition.js';
import { RpcStandIns } from './rpc-stand-ins.js';

/** The selfie the training stand-in names for every model (the local generator draws on it). */
const SELFIE_KEY = 'users/1/selfies/stand-in.jpg';

export interface JobRow {
  id: string;
  user_id: number;
  custom_model_id: number;
  prompt_text: string;
  num_outputs: number;
  status: string;
  provider: string;
  model_version: string;
  hold_reference: string;
  prediction_id: string | null;
  results: { avatarIds: number[] } | null;
  attempts: number;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A message on a stream, as a consumer would get it. */
export interface StreamMessage {
  seq: number;
  subject: string;
  /** The envelope's id (the Nats-Msg-Id). */
  id: string;
  payload: Record<string, unknown>;
}

/** An avatar media's stand-in kept, with the bytes generation staged for it. */
export interface KeptAvatar {
  avatar: Avatar;
  request: RpcRequestInput<typeof MediaRpc.storeAvatar>;
  bytes: Buffer;
}

export interface GenerationUnderTest {
  env: TestServiceEnvironment;
  standIns: RpcStandIns;
  /** Calls generation over NATS, as its callers do. */
  rpc: Awaited<ReturnType<typeof createTestRpcClient>>['rpc'];
  db: pg.Pool;
  /** Avatars media's stand-in kept, by sourceRef. */
  kept: Map<string, KeptAvatar>;
  /** Another generation process on the same database and namespace; `stop` closes it as SIGTERM would. */
  startReplica(extraEnv?: Record<string, string>): Promise<{ app: NestFastifyApplication; stop(): Promise<void> }>;
  /** Training, billing and media answer as they do when all is well. */
  answerAsUsual(): Promise<void>;
  /** Asks generation for a run, as the gateway does. */
  generate(
    userId: number,
    overrides?: Partial<RpcRequestInput<typeof GenerationRpc.generateAvatar>>,
  ): Promise<{ jobId: string }>;
  job(userId: number, jobId: string): Promise<GenerationJobView>;
  /** Waits for the job to leave `pending`. */
  finished(userId: number, jobId: string, timeoutMs?: number): Promise<GenerationJobView>;
  row(jobId: string): Promise<JobRow | undefined>;
  rowsOf(userId: number): Promise<JobRow[]>;
  /** The payloads of one event generation published (on the EVENTS stream), for one job when given. */
  eventsOf<E extends EventDefinition>(event: E, jobId?: string): Promise<EventPayload<E>[]>;
  /** The job messages still on the queue (a worker's ack removes them). */
  queued(): Promise<StreamMessage[]>;
  /** Waits until everything generation has committed so far is on the streams (its outbox is empty). */
  published(): Promise<void>;
  /** Puts a message for the job on the queue, as a redelivery or a second enqueue would; returns its sequence. */
  publishJob(jobId: string): Promise<number>;
  /** Takes the job's message off the queue, as a purged or expired stream would. */
  loseJobMessage(jobId: string): Promise<void>;
  /** What training answers for a runnable model when all is well. */
  runnableModel(id: number): RpcResponseInput<typeof TrainingRpc.getRunnableModel>;
  /** What media does with an output when all is well: keeps it once per sourceRef (into `kept`). */
  keepAvatar(request: RpcRequestInput<typeof MediaRpc.storeAvatar>): Promise<Avatar>;
  close(): Promise<void>;
}

/**
 * Generation in process on a fresh database and NATS namespace, with training, billing and
 * media played by RPC stand-ins the test controls, and storage in a temporary directory.
 * `extraEnv` picks the role (GENERATION_ROLE), the provider and the timings.
 */
export async function startGeneration(
  label: string,
  extraEnv: Record<string, string> = {},
  options: { modelVersion?: (modelId: number) => string } = {},
): Promise<GenerationUnderTest> {
  const env = await createTestServiceEnvironment(label);
  const dataDir = tempDir(`generation-${label}`);
  const appEnv = {
    ...env.env,
    DATA_DIR: dataDir,
    LOCAL_GENERATION_MS: '50',
    // Running jobs heartbeat every second: a busy machine's pauses must not look like a dead worker.
    JOB_ACK_WAIT_MS: '3000',
    ...extraEnv,
  };
  const standIns = await RpcStandIns.start(env.natsUrl, env.namespace);
  const storage = new LocalObjectStorage(join(dataDir, 'objects'));
  await storage.put(
    SELFIE_KEY,
    await sharp({ create: { width: 256, height: 256, channels: 3, background: '#c08060' } })
      .jpeg()
      .toBuffer(),
    { contentType: 'image/jpeg' },
  );

  const apps = new Set<NestFastifyApplication>();
  const startReplica = async (replicaEnv: Record<string, string> = {}) => {
    const config = loadConfig(generationService.configSchema, { ...appEnv, ...replicaEnv });
    await runMigrations(generationService.database(config));
    const app = await createServiceApp(generationService, config);
    apps.add(app);
    return {
      app,
      stop: async () => {
        if (apps.delete(app)) await app.close();
      },
    };
  };
  await startReplica();

  const client = await createTestRpcClient(env.natsUrl, env.namespace, 15_000);
  const jsm: JetStreamManager = await jetstreamManager(client.connection);
  const db = new pg.Pool({ connectionString: env.database.url, max: 4 });
  const kept = new Map<string, KeptAvatar>();
  let nextAvatarId = 1;
  const events = new StreamReader(jsm, namespacedStream(env, EVENTS_STREAM), { immutable: true });
  const jobs = new StreamReader(jsm, namespacedStream(env, JOBS_STREAM), { immutable: false });

  // Media keeps each output once per sourceRef, as the real one does; the bytes must be staged.
  const keepAvatar = async (request: RpcRequestInput<typeof MediaRpc.storeAvatar>) => {
    const earlier = kept.get(request.sourceRef);
    if (earlier) return earlier.avatar;
    const bytes = await readObject(storage, request.stagingKey);
    const id = nextAvatarId++;
    const avatar: Avatar = {
      id,
      promptText: request.promptText,
      imageUrl: `/api/images/avatars/${id}`,
      thumbnailUrl: `/api/images/avatars/${id}/thumbnail`,
      shareUrl: `/share/${id}`,
      customModelId: request.customModelId,
      favourite: false,
      createdAt: new Date().toISOString(),
    };
    kept.set(request.sourceRef, { avatar, request, bytes });
    return avatar;
  };
  const runnableModel = (id: number) => ({
    id,
    triggerWord: `tw${id}`,
    version: options.modelVersion?.(id) ?? `local:${id}`,
    imageKeys: [SELFIE_KEY],
  });
  const answerAsUsual = async () => {
    await standIns.answer(TrainingRpc.getRunnableModel, ({ id }) => runnableModel(id));
    await standIns.answer(BillingRpc.reserveCredits, ({ reference, amount }) => ({
      reference,
      amount,
      status: 'held' as const,
      available: 100,
    }));
    await standIns.answer(BillingRpc.releaseCredits, ({ reference }) => ({ reference, status: 'released' as const }));
    await standIns.answer(BillingRpc.getGenerationPriority, () => ({ priority: false }));
    await standIns.answer(MediaRpc.storeAvatar, keepAvatar);
  };
  await answerAsUsual();

  const job = (userId: number, jobId: string) => client.rpc.call(GenerationRpc.getJob, { userId, jobId });
  const eventsOf = async <E extends EventDefinition>(event: E, jobId?: string) =>
    (await events.read())
      .filter((message) => message.subject.endsWith(event.subject))
      .map((message) => message.payload as EventPayload<E>)
      .filter((payload) => jobId === undefined || (payload as { jobId?: string }).jobId === jobId);

  const published = () =>
    waitFor(
      async () => (await db.query(`SELECT 1 FROM generation.outbox WHERE published_at IS NULL LIMIT 1`)).rowCount === 0,
      { what: "generation's outbox published" },
    ).then(() => undefined);

  return {
    rpc: client.rpc,
    env,
    standIns,
    db,
    kept,
    startReplica,
    answerAsUsual,
    generate: (userId, overrides = {}) =>
      client.rpc.call(GenerationRpc.generateAvatar, {
        userId,
        customModelId: 7,
        promptText: 'tw7 in a garden',
        numOutputs: 1,
        ...overrides,
      }),
    job,
    finished: (userId, jobId, timeoutMs = 15_000) =>
      waitFor(
        async () => {
          const current = await job(userId, jobId);
          return current.status === 'pending' ? undefined : current;
        },
        { what: `job ${jobId} to finish`, timeoutMs },
      ),
    row: async (jobId) =>
      (await db.query<JobRow>(`SELECT * FROM generation.generation_jobs WHERE id = $1`, [jobId])).rows[0],
    rowsOf: async (userId) =>
      (
        await db.query<JobRow>(`SELECT * FROM generation.generation_jobs WHERE user_id = $1 ORDER BY created_at`, [
          userId,
        ])
      ).rows,
    eventsOf,
    queued: () => jobs.read(),
    published,
    publishJob: async (jobId) => {
      const envelope = {
        id: randomUUID(),
        type: `${runGenerationJob.queue}.${runGenerationJob.name}`,
        version: runGenerationJob.version,
        occurredAt: new Date().toISOString(),
        payload: { jobId },
      };
      const ack = await jetstream(client.connection).publish(
        namespaced(env, jobMessageSubject(runGenerationJob, jobId)),
        JSON.stringify(envelope),
        { msgID: envelope.id },
      );
      return ack.seq;
    },
    loseJobMessage: async (jobId) => {
      await published();
      await jsm.streams.purge(namespacedStream(env, JOBS_STREAM), {
        filter: namespaced(env, jobMessageSubject(runGenerationJob, jobId)),
      });
    },
    runnableModel,
    keepAvatar,
    close: async () => {
      for (const app of [...apps].reverse()) await app.close();
      await client.close();
      await standIns.close();
      await db.end();
      await env.database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Refused as media refuses an image it cannot keep. */
export const invalidImage = () =>
  new DomainError('MEDIA.INVALID_IMAGE', 'The file is not an image we can read (JPEG, PNG, WebP or GIF).');

async function readObject(storage: LocalObjectStorage, key: string): Promise<Buffer> {
  const object = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads a stream's messages by sequence without consuming them (a work-queue stream allows
 * no second consumer on the workers' subject). Messages of an immutable stream are read once.
 */
class StreamReader {
  private readonly cache = new Map<number, StreamMessage | null>();

  constructor(
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly options: { immutable: boolean },
  ) {}

  async read(): Promise<StreamMessage[]> {
    const { state } = await this.jsm.streams.info(this.stream);
    const messages: StreamMessage[] = [];
    if (state.messages === 0) return messages;
    for (let seq = state.first_seq; seq <= state.last_seq; seq += 1) {
      let message = this.options.immutable ? this.cache.get(seq) : undefined;
      if (message === undefined) {
        const stored: StoredMsg | null = await this.jsm.streams.getMessage(this.stream, { seq }).catch(() => null);
        message = stored ? toStreamMessage(stored) : null;
        if (this.options.immutable && message) this.cache.set(seq, message);
      }
      if (message) messages.push(message);
    }
    return messages;
  }
}

function toStreamMessage(stored: StoredMsg): StreamMessage {
  const envelope = stored.json<{ id: string; payload: Record<string, unknown> }>();
  return { seq: stored.seq, subject: stored.subject, id: envelope.id, payload: envelope.payload };
}

/** A model trained on the stand-in, as training would have made it: `owner/name:version`. */
export async function trainedVersion(standIn: ReplicateStandIn): Promise<string> {
  const call = async (path: string, body: object) => {
    const response = await fetch(`${standIn.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standIn.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  await call('/models', { owner: standIn.owner, name: 'model-7', visibility: 'private', hardware: 'gpu-h100' });
  const [trainerModel, trainerVersion] = standIn.trainer.split(':');
  const training = await call(`/models/${trainerModel}/versions/${trainerVersion}/trainings`, {
    destination: `${standIn.owner}/model-7`,
    input: { input_images: 'https://example.invalid/selfies.zip', trigger_word: 'tw7' },
  });
  const { training: trained } = await standIn.completeTraining(training.id, {
    status: 'succeeded',
    deliverWebhook: false,
  });
  return trained.output!.version;
}

/**
 * Generation on the Replicate stand-in as it scales: a request side (with a model trained on the
 * stand-in, JOB_MAX_ATTEMPTS 3) and a worker process beside it.
 */
export async function startGenerationOnReplicate(
  label: string,
  standIn: ReplicateStandIn,
): Promise<{
  sut: GenerationUnderTest;
  worker: Awaited<ReturnType<GenerationUnderTest['startReplica']>>;
  version: string;
}> {
  const version = await trainedVersion(standIn);
  const sut = await startGeneration(
    label,
    {
      GENERATION_ROLE: 'api',
      REPLICATE_API_TOKEN: standIn.apiToken,
      REPLICATE_API_URL: standIn.url,
      JOB_MAX_ATTEMPTS: '3',
    },
    { modelVersion: () => version },
  );
  return { sut, worker: await sut.startReplica({ GENERATION_ROLE: 'worker' }), version };
}

/**
 * Makes generation's outbox refuse the rows `condition` (SQL on `NEW`) picks, as a full disk
 * would, while `work` runs: the transaction adding one fails as a whole.
 */
export async function withOutboxRefusing<T>(db: pg.Pool, condition: string, work: () => Promise<T>): Promise<T> {
  await db.query(`
    CREATE FUNCTION generation.refuse_outbox_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'the disk is full'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_outbox_rows BEFORE INSERT ON generation.outbox
      FOR EACH ROW EXECUTE FUNCTION generation.refuse_outbox_rows();
  `);
  try {
    return await work();
  } finally {
    await db.query(`
      DROP TRIGGER refuse_outbox_rows ON generation.outbox;
      DROP FUNCTION generation.refuse_outbox_rows();
    `);
  }
}
