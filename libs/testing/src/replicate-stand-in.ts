import { createHmac, randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A local stand-in for the part of Replicate's HTTP API the inference adapters call (destination
 * models and their versions, trainings, predictions with the trained versions), answering in Replicate's shapes so the real `replicate`
 * client talks to it through its `baseUrl`. Tests decide what Replicate would do on its own (a
 * training finishing or failing, a lost answer) and get webhooks signed as Replicate signs them.
 * Its signing is written here independently of the adapter's check, so the two test each other.
 * There is no internet in tests: never point the adapter at the real Replicate.
 */
export interface ReplicateStandIn {
  /** `http://127.0.0.1:<port>/v1`: the client's baseUrl (REPLICATE_API_URL). */
  url: string;
  apiToken: string;
  /** The account the token belongs to: destination models must be under it (REPLICATE_OWNER). */
  owner: string;
  /** The trainer the stand-in knows, `owner/name:version` (REPLICATE_TRAINER_VERSION). */
  trainer: string;
  /** `whsec_<base64>`: what Replicate's webhooks/default/secret would give (REPLICATE_WEBHOOK_SECRET). */
  webhookSecret: string;
  /** REPLICATE_API_TOKEN, REPLICATE_API_URL, REPLICATE_OWNER, REPLICATE_TRAINER_VERSION, REPLICATE_WEBHOOK_SECRET. */
  env: Record<string, string>;
  /** Every training created, oldest first (copies, with the destination Replicate does not show). */
  trainings(): StandInTraining[];
  /** The trainings into one destination (`owner/name`), oldest first. */
  trainingsFor(destination: string): StandInTraining[];
  /** One training by id (a copy); throws when there is none. */
  training(id: string): StandInTraining;
  /** The models that exist now, with their version ids. */
  models(): StandInModel[];
  /** Every request received, in order, with the status it was answered. */
  requests(): StandInReplicateRequest[];
  /**
   * The next training creation takes effect, then is answered `status` (say 502) as when a gateway
   * loses Replicate's answer; `'no-answer'` keeps the caller waiting until it gives up.
   */
  failNextCreateWith(status: number | 'no-answer'): void;
  /** The next `count` requests (any endpoint) are answered `status` without taking effect. */
  failNext(count: number, status?: number): void;
  /** The training runs: `processing` (and a `start` webhook when it asked for one and `deliverWebhook` is not false). */
  startProcessing(id: string, options?: { deliverWebhook?: boolean }): Promise<StandInTraining>;
  /**
   * The training ends. Success adds a version to the destination model and sets
   * `output.version` to `owner/name:version`. A training with a webhook gets a signed `completed`
   * webhook unless `deliverWebhook` is false; the deliveries are returned.
   */
  completeTraining(
    id: string,
    outcome: { status: 'succeeded' | 'failed' | 'canceled'; error?: string; deliverWebhook?: boolean },
  ): Promise<{ training: StandInTraining; deliveries: WebhookDelivery[] }>;
  /**
   * Posts the training as it is now to its webhook URL `times` times with one webhook id (a
   * redelivery, as Replicate retries), or a forged/replayed variant through the overrides.
   */
  deliverWebhook(id: string, options?: DeliverWebhookOptions): Promise<WebhookDelivery[]>;
  /** The body and headers Replicate would send for the training now, for tests that post it themselves. */
  signedWebhook(
    id: string,
    options?: { webhookId?: string; timestamp?: number },
  ): { body: string; headers: Record<string, string> };
  /** Every prediction created, oldest first (copies). */
  predictions(): StandInPrediction[];
  /** One prediction by id (a copy); throws when there is none. */
  prediction(id: string): StandInPrediction;
  /**
   * The prediction ends. Success sets `output` to one URL per requested output, served by the
   * stand-in itself as real PNGs (`GET /files/<name>.png`, no token, as replicate.delivery). A
   * prediction with a webhook gets its signed `completed` webhook (sent in the background, unless
   * `deliverWebhook` is false; `predictionWebhooks()` lists what was sent).
   */
  completePrediction(
    id: string,
    outcome: {
      status: 'succeeded' | 'failed' | 'canceled';
      outputs?: string[];
      error?: string;
      deliverWebhook?: boolean;
    },
  ): StandInPrediction;
  /** Posts the prediction as it is now to its webhook URL, as `deliverWebhook` does for a training. */
  deliverPredictionWebhook(id: string, options?: DeliverWebhookOptions): Promise<WebhookDelivery[]>;
  /** The webhooks `completePrediction` sent so far, oldest first. */
  predictionWebhooks(): WebhookDelivery[];
  /** The next prediction creation takes effect and is never answered (the caller times out). */
  holdNextPredictionCreate(): void;
  /**
   * The next `count` prediction creations are answered `status` (default 502): without taking
   * effect, or, `lost`, after it (as when a gateway loses Replicate's answer).
   */
  failNextPredictionCreates(count: number, options?: { status?: number; lost?: boolean }): void;
  /** Closes the server; later requests find nothing listening. Safe to call twice. */
  close(): Promise<void>;
}

export interface DeliverWebhookOptions {
  times?: number;
  /** Sent as `webhook-signature` instead of the real one. */
  signatureOverride?: string;
  /** Seconds since the epoch; the signature is made for it (a stale or future webhook). */
  timestampOverride?: number;
  /** The `webhook-id`; defaults to a fresh one. */
  idOverride?: string;
  /** Where to post instead of the training's webhook URL. */
  url?: string;
}

export interface WebhookDelivery {
  url: string;
  webhookId: string;
  /** The receiver's status, or 0 when it could not be reached. */
  status: number;
  responseBody: string;
}

export interface StandInReplicateRequest {
  method: string;
  path: string;
  status: number;
}

export interface StandInModel {
  owner: string;
  name: string;
  visibility: 'public' | 'private';
  hardware: string;
  versions: string[];
}

export type StandInTrainingStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface StandInTraining {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  output: { version: string; weights: string } | null;
  status: StandInTrainingStatus;
  error: string | null;
  logs: string;
  source: 'api';
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  webhook?: string;
  webhook_events_filter?: string[];
  urls: { get: string; cancel: string; web: string };
  /** Kept by the stand-in for inspection; Replicate's training JSON does not name it. */
  destination: string;
}

export interface StandInPrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  output: string[] | null;
  status: StandInTrainingStatus;
  error: string | null;
  logs: string;
  source: 'api';
  data_removed: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  webhook?: string;
  webhook_events_filter?: string[];
  urls: { get: string; cancel: string; web: string };
}

/** A small real PNG, different for every name, for the output URLs of predictions. */
function outputPng(name: string): Promise<Buffer> {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return sharp({
    create: {
      width: 64,
      height: 64,
      channels: 3,
      background: { r: hash & 255, g: (hash >> 8) & 255, b: (hash >> 16) & 255 },
    },
  })
    .png()
    .toBuffer();
}

interface Answer {
  status: number;
  body?: unknown;
}

const problem = (status: number, detail: string, title = 'Error'): Answer => ({
  status,
  body: { title, detail, status },
});

const replicateId = () =>
  randomBytes(16)
    .toString('base64')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 26)
    .padEnd(26, 'q');

const isFinished = (status: StandInTrainingStatus) =>
  status === 'succeeded' || status === 'failed' || status === 'canceled';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function signature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

export async function startReplicateStandIn(
  options: { owner?: string; webhookSecret?: string; pageSize?: number } = {},
): Promise<ReplicateStandIn> {
  const apiToken = `r8_standin_${randomBytes(16).toString('hex')}`;
  const owner = options.owner ?? 'likeness-test';
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(32).toString('base64')}`;
  const pageSize = options.pageSize ?? 100;
  const trainerModel = 'ostris/flux-dev-lora-trainer';
  const trainerVersion = randomBytes(32).toString('hex');
  const trainer = `${trainerModel}:${trainerVersion}`;
  const models = new Map<string, StandInModel>();
  const trainings: StandInTraining[] = [];
  const predictions: StandInPrediction[] = [];
  let holdPredictionCreate = false;
  const predictionCreateFailures: { status: number; lost: boolean }[] = [];
  const log: StandInReplicateRequest[] = [];
  const failures: number[] = [];
  let createFailure: number | 'no-answer' | undefined;
  const held: ServerResponse[] = [];
  let url = '';

  function find(id: string): StandInTraining {
    const training = trainings.find((candidate) => candidate.id === id);
    if (!training) throw new Error(`The Replicate stand-in has no training ${id}`);
    return training;
  }

  /** What Replicate shows of a training: everything but the destination. */
  function view(training: StandInTraining): Omit<StandInTraining, 'destination'> {
    const { destination: _destination, ...shown } = structuredClone(training);
    return shown;
  }

  function page<T>(items: T[], cursor: string | null, path: string): Answer {
    const start = cursor ? Number(cursor) : 0;
    const results = items.slice(start, start + pageSize);
    const nextStart = start + pageSize;
    return {
      status: 200,
      body: {
        previous: start > 0 ? `${new URL(url).origin}${path}?cursor=${Math.max(0, start - pageSize)}` : null,
        next: nextStart < items.length ? `${new URL(url).origin}${path}?cursor=${nextStart}` : null,
        results,
      },
    };
  }

  function modelJson(model: StandInModel) {
    const latest = model.versions.at(-1);
    return {
      url: `https://replicate.com/${model.owner}/${model.name}`,
      owner: model.owner,
      name: model.name,
      description: null,
      visibility: model.visibility,
      github_url: null,
      paper_url: null,
      license_url: null,
      run_count: 0,
      cover_image_url: null,
      default_example: null,
      latest_version: latest ? versionJson(latest) : null,
    };
  }

  function versionJson(id: string) {
    return { id, created_at: new Date().toISOString(), cog_version: '0.9.0', openapi_schema: null };
  }

  function createModel(body: Record<string, unknown>): Answer {
    const { owner: modelOwner, name, visibility, hardware } = body;
    if (typeof modelOwner !== 'string' || typeof name !== 'string') {
      return problem(400, 'owner and name are required', 'Invalid input');
    }
    if (visibility !== 'public' && visibility !== 'private') {
      return problem(400, 'visibility must be public or private', 'Invalid input');
    }
    if (typeof hardware !== 'string') return problem(400, 'hardware is required', 'Invalid input');
    if (modelOwner !== owner) return problem(403, `You cannot create models for ${modelOwner}`, 'Forbidden');
    const key = `${modelOwner}/${name}`;
    if (models.has(key)) return problem(409, 'A model with that name and owner already exists.', 'Conflict');
    const model: StandInModel = { owner: modelOwner, name, visibility, hardware, versions: [] };
    models.set(key, model);
    return { status: 201, body: modelJson(model) };
  }

  function createTraining(modelPath: string, version: string, body: Record<string, unknown>): Answer {
    if (modelPath !== trainerModel || version !== trainerVersion) {
      return problem(404, `The trainer ${modelPath}:${version} does not exist`, 'Not found');
    }
    const destination = body['destination'];
    if (typeof destination !== 'string') return problem(400, 'destination is required', 'Invalid input');
    if (!models.has(destination)) {
      return problem(404, `The specified training destination ${destination} does not exist`, 'Not found');
    }
    if (!destination.startsWith(`${owner}/`)) {
      return problem(403, `You cannot train into ${destination}`, 'Forbidden');
    }
    const input = body['input'];
    if (typeof input !== 'object' || input === null) return problem(400, 'input is required', 'Invalid input');
    const webhook = body['webhook'];
    const id = replicateId();
    const training: StandInTraining = {
      id,
      model: trainerModel,
      version: trainerVersion,
      input: input as Record<string, unknown>,
      output: null,
      status: 'starting',
      error: null,
      logs: '',
      source: 'api',
      created_at: new Date().toISOString(),
      started_at: null,
      completed_at: null,
      ...(typeof webhook === 'string'
        ? {
            webhook,
            webhook_events_filter: Array.isArray(body['webhook_events_filter'])
              ? (body['webhook_events_filter'] as string[])
              : ['start', 'output', 'logs', 'completed'],
          }
        : {}),
      urls: {
        get: `${url}/trainings/${id}`,
        cancel: `${url}/trainings/${id}/cancel`,
        web: `https://replicate.com/p/${id}`,
      },
      destination,
    };
    trainings.push(training);
    return { status: 201, body: view(training) };
  }

  function finish(training: StandInTraining, status: 'succeeded' | 'failed' | 'canceled', error?: string) {
    training.status = status;
    training.completed_at = new Date().toISOString();
    training.started_at ??= training.created_at;
    if (status === 'succeeded') {
      const version = randomBytes(32).toString('hex');
      models.get(training.destination)?.versions.push(version);
      training.output = {
        version: `${training.destination}:${version}`,
        weights: `https://replicate.delivery/standin/${training.id}/trained_model.tar`,
      };
    } else if (status === 'failed') {
      training.error = error ?? 'Training failed.';
    }
  }

  function findPrediction(id: string): StandInPrediction {
    const prediction = predictions.find((candidate) => candidate.id === id);
    if (!prediction) throw new Error(`The Replicate stand-in has no prediction ${id}`);
    return prediction;
  }

  /** Predictions run versions of the models trained here, named by the version hash alone. */
  function createPrediction(body: Record<string, unknown>): Answer {
    const version = body['version'];
    if (typeof version !== 'string') return problem(422, 'version is required', 'Invalid input');
    const model = [...models.values()].find((candidate) => candidate.versions.includes(version));
    if (!model) return problem(422, `Invalid version or not permitted: ${version}`, 'Invalid version');
    const input = body['input'];
    if (typeof input !== 'object' || input === null) return problem(422, 'input is required', 'Invalid input');
    const webhook = body['webhook'];
    const id = replicateId();
    const prediction: StandInPrediction = {
      id,
      model: `${model.owner}/${model.name}`,
      version,
      input: input as Record<string, unknown>,
      output: null,
      status: 'starting',
      error: null,
      logs: '',
      source: 'api',
      data_removed: false,
      created_at: new Date().toISOString(),
      started_at: null,
      completed_at: null,
      ...(typeof webhook === 'string'
        ? {
            webhook,
            webhook_events_filter: Array.isArray(body['webhook_events_filter'])
              ? (body['webhook_events_filter'] as string[])
              : ['start', 'output', 'logs', 'completed'],
          }
        : {}),
      urls: {
        get: `${url}/predictions/${id}`,
        cancel: `${url}/predictions/${id}/cancel`,
        web: `https://replicate.com/p/${id}`,
      },
    };
    predictions.push(prediction);
    return { status: 201, body: structuredClone(prediction) };
  }

  function finishPrediction(
    prediction: StandInPrediction,
    status: 'succeeded' | 'failed' | 'canceled',
    outputs?: string[],
    error?: string,
  ) {
    prediction.status = status;
    prediction.completed_at = new Date().toISOString();
    prediction.started_at ??= prediction.created_at;
    if (status === 'succeeded') {
      const count = Number(prediction.input['num_outputs'] ?? 1);
      const names = outputs ?? Array.from({ length: count }, (_, index) => `${prediction.id}-${index}`);
      prediction.output = names.map((name) => `${new URL(url).origin}/files/${name}.png`);
    } else if (status === 'failed') {
      prediction.error = error ?? 'Prediction failed.';
    }
  }

  function handle(method: string, path: string, search: URLSearchParams, body: Record<string, unknown>): Answer {
    if (method === 'POST' && path === '/v1/models') return createModel(body);
    const trainingsCreate = /^\/v1\/models\/([^/]+)\/([^/]+)\/versions\/([^/]+)\/trainings$/.exec(path);
    if (method === 'POST' && trainingsCreate) {
      return createTraining(`${trainingsCreate[1]}/${trainingsCreate[2]}`, trainingsCreate[3] ?? '', body);
    }
    const versionPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/versions\/([^/]+)$/.exec(path);
    if (versionPath) {
      const model = models.get(`${versionPath[1]}/${versionPath[2]}`);
      const version = versionPath[3] ?? '';
      if (!model || !model.versions.includes(version)) return problem(404, 'Not found.', 'Not found');
      if (method === 'GET') return { status: 200, body: versionJson(version) };
      if (method === 'DELETE') {
        model.versions = model.versions.filter((candidate) => candidate !== version);
        return { status: 202 };
      }
    }
    const versionsPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (method === 'GET' && versionsPath) {
      const model = models.get(`${versionsPath[1]}/${versionsPath[2]}`);
      if (!model) return problem(404, 'Not found.', 'Not found');
      const newestFirst = [...model.versions].reverse().map(versionJson);
      return page(newestFirst, search.get('cursor'), path);
    }
    const modelPath = /^\/v1\/models\/([^/]+)\/([^/]+)$/.exec(path);
    if (modelPath) {
      const key = `${modelPath[1]}/${modelPath[2]}`;
      const model = models.get(key);
      if (!model) return problem(404, 'Not found.', 'Not found');
      if (method === 'GET') return { status: 200, body: modelJson(model) };
      if (method === 'DELETE') {
        if (model.versions.length > 0) {
          return problem(409, 'A model with versions cannot be deleted: delete its versions first.', 'Conflict');
        }
        models.delete(key);
        return { status: 204 };
      }
    }
    if (method === 'POST' && path === '/v1/predictions') return createPrediction(body);
    if (method === 'GET' && path === '/v1/predictions') {
      return page(
        [...predictions].reverse().map((prediction) => structuredClone(prediction)),
        search.get('cursor'),
        path,
      );
    }
    const predictionPath = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (predictionPath) {
      const prediction = predictions.find((candidate) => candidate.id === predictionPath[1]);
      if (!prediction) return problem(404, 'Not found.', 'Not found');
      if (method === 'GET' && !predictionPath[2]) return { status: 200, body: structuredClone(prediction) };
      if (method === 'POST' && predictionPath[2]) {
        if (!isFinished(prediction.status)) finishPrediction(prediction, 'canceled');
        return { status: 200, body: structuredClone(prediction) };
      }
    }
    if (method === 'GET' && path === '/v1/trainings') {
      return page([...trainings].reverse().map(view), search.get('cursor'), path);
    }
    const trainingPath = /^\/v1\/trainings\/([^/]+)(\/cancel)?$/.exec(path);
    if (trainingPath) {
      const training = trainings.find((candidate) => candidate.id === trainingPath[1]);
      if (!training) return problem(404, 'Not found.', 'Not found');
      if (method === 'GET' && !trainingPath[2]) return { status: 200, body: view(training) };
      if (method === 'POST' && trainingPath[2]) {
        if (!isFinished(training.status)) finish(training, 'canceled');
        return { status: 200, body: view(training) };
      }
    }
    return problem(404, `The stand-in does not answer ${method} ${path}`, 'Not found');
  }

  function write(response: ServerResponse, answer: Answer) {
    if (answer.body === undefined) {
      response.writeHead(answer.status);
      response.end();
      return;
    }
    response.writeHead(answer.status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  }

  const server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const method = request.method ?? 'GET';
      const requestUrl = new URL(request.url ?? '/', 'http://stand-in');
      const path = requestUrl.pathname;
      const file = /^\/files\/([\w-]+)\.png$/.exec(path);
      if (method === 'GET' && file) {
        log.push({ method, path, status: 200 });
        response.writeHead(200, { 'Content-Type': 'image/png' });
        response.end(await outputPng(file[1] ?? ''));
        return;
      }
      const isCreate = method === 'POST' && /\/trainings$/.test(path);
      const isPredictionCreate = method === 'POST' && path === '/v1/predictions';
      const failure = failures.shift();
      const predictionCreateFailure = isPredictionCreate ? predictionCreateFailures.shift() : undefined;
      let answer: Answer;
      if (predictionCreateFailure && !predictionCreateFailure.lost) {
        answer = problem(
          predictionCreateFailure.status,
          'The Replicate stand-in was told to fail this creation.',
          'Server error',
        );
      } else if (failure !== undefined) {
        answer = problem(failure, 'The Replicate stand-in was told to fail this request.', 'Server error');
      } else if (request.headers.authorization !== `Bearer ${apiToken}`) {
        answer = problem(401, 'You did not pass a valid authentication token', 'Unauthenticated');
      } else {
        const body = parseJson(text);
        answer = body
          ? handle(method, path, requestUrl.searchParams, body)
          : problem(400, 'The body is not a JSON object', 'Invalid input');
        if (isCreate && answer.status < 300 && createFailure !== undefined) {
          const lost = createFailure;
          createFailure = undefined;
          if (lost === 'no-answer') {
            log.push({ method, path, status: 0 });
            held.push(response);
            return;
          }
          answer = problem(lost, 'The Replicate stand-in lost the answer to this request.', 'Bad gateway');
        }
        if (isPredictionCreate && answer.status < 300 && predictionCreateFailure?.lost) {
          answer = problem(
            predictionCreateFailure.status,
            'The Replicate stand-in lost the answer to this request.',
            'Bad gateway',
          );
        }
        if (isPredictionCreate && answer.status < 300 && holdPredictionCreate) {
          holdPredictionCreate = false;
          log.push({ method, path, status: 0 });
          held.push(response);
          return;
        }
      }
      log.push({ method, path, status: answer.status });
      write(response, answer);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ title: 'Stand-in error', detail: String(error), status: 500 }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  let closed: Promise<void> | undefined;

  function signed(
    body: string,
    { webhookId = `msg_${replicateId()}`, timestamp = Math.floor(Date.now() / 1000) } = {},
  ) {
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(webhookSecret, webhookId, timestamp, body),
      },
    };
  }

  const signedWebhook = (id: string, options: { webhookId?: string; timestamp?: number } = {}) =>
    signed(JSON.stringify(view(find(id))), options);

  /** Posts `body` (a training's or a prediction's JSON) to `target`, signed, as `deliver` asks. */
  async function post(target: string, body: string, deliver: DeliverWebhookOptions): Promise<WebhookDelivery[]> {
    const webhookId = deliver.idOverride ?? `msg_${replicateId()}`;
    const { headers } = signed(body, {
      webhookId,
      ...(deliver.timestampOverride !== undefined ? { timestamp: deliver.timestampOverride } : {}),
    });
    if (deliver.signatureOverride !== undefined) headers['webhook-signature'] = deliver.signatureOverride;
    const deliveries: WebhookDelivery[] = [];
    for (let attempt = 0; attempt < (deliver.times ?? 1); attempt++) {
      try {
        const response = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
        deliveries.push({ url: target, webhookId, status: response.status, responseBody: await response.text() });
      } catch (error) {
        deliveries.push({ url: target, webhookId, status: 0, responseBody: String(error) });
      }
    }
    return deliveries;
  }

  function deliverWebhook(id: string, deliver: DeliverWebhookOptions = {}): Promise<WebhookDelivery[]> {
    const training = find(id);
    const target = deliver.url ?? training.webhook;
    if (!target) throw new Error(`Training ${id} has no webhook URL`);
    return post(target, JSON.stringify(view(training)), deliver);
  }

  function deliverPredictionWebhook(id: string, deliver: DeliverWebhookOptions = {}): Promise<WebhookDelivery[]> {
    const prediction = findPrediction(id);
    const target = deliver.url ?? prediction.webhook;
    if (!target) throw new Error(`Prediction ${id} has no webhook URL`);
    return post(target, JSON.stringify(prediction), deliver);
  }

  const predictionWebhooks: WebhookDelivery[] = [];

  const wants = (job: StandInTraining | StandInPrediction, event: string) =>
    job.webhook !== undefined && (job.webhook_events_filter ?? []).includes(event);

  return {
    url,
    apiToken,
    owner,
    trainer,
    webhookSecret,
    env: {
      REPLICATE_API_TOKEN: apiToken,
      REPLICATE_API_URL: url,
      REPLICATE_OWNER: owner,
      REPLICATE_TRAINER_VERSION: trainer,
      REPLICATE_WEBHOOK_SECRET: webhookSecret,
    },
    trainings: () => trainings.map((training) => structuredClone(training)),
    trainingsFor: (destination) =>
      trainings.filter((training) => training.destination === destination).map((training) => structuredClone(training)),
    training: (id) => structuredClone(find(id)),
    models: () => [...models.values()].map((model) => structuredClone(model)),
    requests: () => structuredClone(log),
    failNextCreateWith(status) {
      createFailure = status;
    },
    failNext(count, status = 502) {
      for (let index = 0; index < count; index++) failures.push(status);
    },
    async startProcessing(id, { deliverWebhook: deliver = true } = {}) {
      const training = find(id);
      if (isFinished(training.status)) throw new Error(`Training ${id} already ${training.status}`);
      training.status = 'processing';
      training.started_at ??= new Date().toISOString();
      if (deliver && wants(training, 'start')) await deliverWebhook(id);
      return structuredClone(training);
    },
    async completeTraining(id, { status, error, deliverWebhook: deliver = true }) {
      const training = find(id);
      if (isFinished(training.status)) throw new Error(`Training ${id} already ${training.status}`);
      finish(training, status, error);
      const deliveries = deliver && wants(training, 'completed') ? await deliverWebhook(id) : [];
      return { training: structuredClone(training), deliveries };
    },
    predictions: () => predictions.map((prediction) => structuredClone(prediction)),
    prediction: (id) => structuredClone(findPrediction(id)),
    completePrediction(id, { status, outputs, error, deliverWebhook: deliver = true }) {
      const prediction = findPrediction(id);
      if (isFinished(prediction.status)) throw new Error(`Prediction ${id} already ${prediction.status}`);
      finishPrediction(prediction, status, outputs, error);
      if (deliver && wants(prediction, 'completed')) {
        void deliverPredictionWebhook(id).then((sent) => predictionWebhooks.push(...sent));
      }
      return structuredClone(prediction);
    },
    deliverPredictionWebhook,
    predictionWebhooks: () => structuredClone(predictionWebhooks),
    holdNextPredictionCreate() {
      holdPredictionCreate = true;
    },
    failNextPredictionCreates(count, { status = 502, lost = false } = {}) {
      for (let index = 0; index < count; index++) predictionCreateFailures.push({ status, lost });
    },
    deliverWebhook,
    signedWebhook,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const response of held.splice(0)) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
