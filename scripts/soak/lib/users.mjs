// A simulated person, through the gateway as the SPA would call it: registers, buys credits
// (some cards declined first), uploads selfies, trains a model (some trainings fail: the local
// trainer fails the trigger word `fail-training`), generates (some fail: the local generator fails
// prompts with `fail-generation`), looks at the gallery, deletes avatars, a selfie and, at the
// end of its life, its model, then starts again as someone new. Every request is recorded.
import { LOCAL_TEST_CARDS } from '@likeness/contracts';
import { apiCaller } from '../../bench/lib/api.mjs';

const PASSWORD = 'soak-password-1';
const PROMPTS = [
  'portrait in a garden',
  'on a mountain at sunrise',
  'studio photo, soft light',
  'city street at night',
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gateway client that records each request under its route template. */
export function recordingClient(baseUrl, record, { timeoutMs = 30_000 } = {}) {
  const call = apiCaller(baseUrl, { timeoutMs });
  return async (route, path, options) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    try {
      const answer = await call(path, options);
      const code = answer.status >= 400 ? answer.json?.code : undefined;
      record.request(route, answer.status, code, startedAt, performance.now() - t0);
      return answer;
    } catch (error) {
      const kind = error.name === 'TimeoutError' ? 'timeout' : 'connection';
      record.request(route, 0, kind, startedAt, performance.now() - t0);
      return { status: 0, headers: new Headers(), json: undefined };
    }
  };
}

/**
 * One simulated person after another until `deadline`.
 * @param {{ call: ReturnType<typeof recordingClient>, record: import('./record.mjs').SoakRecord, selfies: Buffer[],
 *   deadline: number, name: string, random: () => number, thinkMs: number, log: (line: string) => void }} options
 */
export async function simulateUser(options) {
  let life = 0;
  while (Date.now() < options.deadline) {
    life += 1;
    await oneLife({ ...options, username: `${options.name}_${life}` }).catch((error) =>
      options.log(`${options.name}: ${error.message}`),
    );
  }
}

/** Retries a step that got no answer or a 5xx (a fault), a few times, as a person would. */
async function persist(step, { deadline, attempts = 6 }) {
  let answer;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    answer = await step();
    if (answer.status > 0 && answer.status < 500 && answer.status !== 429) return answer;
    if (Date.now() > deadline) break;
    await sleep(Math.min(2_000 * attempt, 10_000));
  }
  return answer;
}

async function oneLife({ call, record, selfies, deadline, username, random, thinkMs }) {
  const think = () => sleep(thinkMs * (0.5 + random()));
  const registered = await persist(
    () =>
      call('POST /api/register', '/api/register', {
        method: 'POST',
        body: { username, email: `${username}@soak.example.com`, password: PASSWORD },
      }),
    { deadline },
  );
  if (registered.status === 201) record.count('registered');
  else {
    // A retried registration whose first try went through: the account exists, so log in.
    const login = await call('POST /api/login', '/api/login', {
      method: 'POST',
      body: { username, password: PASSWORD },
    });
    if (login.status !== 200) throw new Error(`could not register or log in ${username} (${registered.status})`);
    registered.headers = login.headers;
  }
  const cookie = registered.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const user = { call, record, cookie, deadline, random };

  await buy(user, random() < 0.5 ? 'starter' : 'creator');
  await think();

  const uploaded = await persist(() => upload(user, selfies), { deadline });
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}`);
  const selfieIds = uploaded.json.uploadedFiles.map((file) => file.id);

  // One training in five fails; the person then trains again.
  let model = await train(user, selfieIds, random() < 0.2 ? 'fail-training' : 'soak_face');
  if (model?.status === 'failed') {
    // Media frees the selfies when it hears of the failure; a person reads the message first.
    await sleep(3_000);
    model = await train(user, selfieIds, 'soak_face');
  }
  if (model?.status !== 'completed') return;

  // The training is over: its selfies may go.
  const selfieDeleted = await call('DELETE /api/uploaded-images/{id}', `/api/uploaded-images/${selfieIds[0]}`, {
    method: 'DELETE',
    cookie,
  });
  if (selfieDeleted.status === 200) record.count('selfie deleted');

  const generations = 3 + Math.floor(random() * 5);
  for (let run = 0; run < generations && Date.now() < deadline; run += 1) {
    await think();
    const balance = await call('GET /api/user', '/api/user', { cookie });
    if (balance.status === 200 && balance.json.credits < 10) await buy(user, 'starter');
    await generate(user, model.id, random() < 0.15);
    await think();
    const gallery = await call('GET /api/avatars', '/api/avatars?limit=24', { cookie });
    const avatars = gallery.status === 200 ? gallery.json.items : [];
    if (avatars.length > 0 && random() < 0.4) {
      const avatar = avatars[Math.floor(random() * avatars.length)];
      const deleted = await call('DELETE /api/avatars/{id}', `/api/avatars/${avatar.id}`, { method: 'DELETE', cookie });
      if (deleted.status === 200) {
        record.deletedAvatarIds.add(avatar.id);
        record.count('avatar deleted');
      }
    }
    if (random() < 0.3) await call('GET /api/credit-history', '/api/credit-history?page=1&pageSize=20', { cookie });
  }
  const modelDeleted = await call('DELETE /api/custom-models/{id}', `/api/custom-models/${model.id}`, {
    method: 'DELETE',
    cookie,
  });
  if (modelDeleted.status === 200) record.count('model deleted');
}

/** Buys a package through the local test processor, as the checkout page does; one card in four is declined first. */
async function buy({ call, record, cookie, deadline, random }, packageId) {
  const intent = await persist(
    () =>
      call('POST /api/create-payment-intent', '/api/create-payment-intent', {
        method: 'POST',
        body: { packageId },
        cookie,
      }),
    { deadline },
  );
  if (intent.status !== 200 && intent.status !== 201) return;
  const { paymentIntentId } = intent.json;
  const pay = (cardNumber) =>
    call('POST /api/local-payments/confirm', '/api/local-payments/confirm', {
      method: 'POST',
      body: { paymentIntentId, cardNumber },
      cookie,
    });
  if (random() < 0.25 && (await pay(LOCAL_TEST_CARDS.declined)).status === 402) record.count('card declined');
  const paid = await persist(() => pay(LOCAL_TEST_CARDS.success), { deadline });
  if (paid.status !== 200) return;
  record.count('card paid');
  await persist(
    () =>
      call('POST /api/confirm-payment', '/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, cookie }),
    { deadline },
  );
}

function upload({ call, cookie }, selfies) {
  const form = new FormData();
  selfies.forEach((bytes, index) => form.append('selfies', new Blob([bytes], { type: 'image/jpeg' }), `s${index}.jpg`));
  return call('POST /api/upload-selfies', '/api/upload-selfies', { method: 'POST', body: form, cookie });
}

/** Starts a training and follows it to its end; the model as last seen. */
async function train({ call, record, cookie, deadline }, referenceImageIds, triggerWord) {
  const started = await persist(
    () =>
      call('POST /api/train-model', '/api/train-model', {
        method: 'POST',
        body: { modelName: 'Soak model', triggerWord, referenceImageIds },
        cookie,
      }),
    { deadline },
  );
  if (started.status !== 201) return undefined;
  // Followed a while past the deadline: a training started is seen to its end.
  const until = Math.max(deadline, Date.now()) + 60_000;
  while (Date.now() < until) {
    await sleep(1_500);
    const models = await call('GET /api/custom-models', '/api/custom-models', { cookie });
    const model = models.status === 200 ? models.json.find((candidate) => candidate.id === started.json.id) : undefined;
    if (model && (model.status === 'completed' || model.status === 'failed')) {
      record.count(`training ${model.status}`);
      return model;
    }
  }
  return undefined;
}

/** Generates one or two images (a failing prompt when asked) and follows the job to its end. */
async function generate({ call, record, cookie, deadline, random }, customModelId, failing) {
  const prompt = `soak_face, ${PROMPTS[Math.floor(random() * PROMPTS.length)]}${failing ? ', fail-generation' : ''}`;
  const started = await call('POST /api/generate-avatar', '/api/generate-avatar', {
    method: 'POST',
    body: { promptText: prompt, customModelId, numOutputs: 1 + Math.floor(random() * 2) },
    cookie,
  });
  if (started.status !== 201) return;
  const until = Math.max(deadline, Date.now()) + 60_000;
  while (Date.now() < until) {
    await sleep(1_000);
    const job = await call('GET /api/generation-jobs/{jobId}', `/api/generation-jobs/${started.json.jobId}`, {
      cookie,
    });
    if (job.status === 200 && job.json.status !== 'pending') {
      record.count(`generation ${job.json.status}${failing ? ' (failing prompt)' : ''}`);
      return;
    }
  }
}
