import {
  type AvatarsPage,
  type GenerationJob,
  type HttpRoute,
  type UploadedImage,
  errorBodySchema,
  httpRoutes,
  logoutRoute,
} from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import fc from 'fast-check';
import sharp from 'sharp';
import { type Session, apiClient, photo } from './api-client.js';
import {
  type FuzzAnswer,
  type FuzzRequest,
  SESSION_KINDS,
  type SessionKind,
  describeRequest,
  requestsFor,
  sampleFiles,
  send,
} from './fuzz/requests.js';
import type { KnownValues } from './fuzz/zod-arbitrary.js';
import { type RunningStack, startTestStack } from './stack-harness.js';

/**
 * Every route of the contracts (libs/contracts routes.ts) gets requests made from its own
 * schemas, valid and spoiled one field at a time, plus hostile text, wrong types, odd shapes,
 * bodies at and past the limits, wrong content types, broken JSON and multipart, from no one,
 * the administrator (who owns the fixtures), another signed-in user and bad or oversized cookies. Whatever it is sent, the product answers in
 * its error format, never with a 5xx, and no service exits.
 *
 * FUZZ_SEED replays a run (the seed is printed); FUZZ_RUNS sets the requests per route.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_121);
const RUNS_PER_ROUTE = Number(process.env['FUZZ_RUNS'] ?? 100);
const REQUEST_TIMEOUT_MS = 30_000;
/** Text that would tell an attacker about the inside. */
const INTERNALS = /\bat .+\(|node_modules|\.ts:\d+|QueryFailedError|TypeError|RangeError|SyntaxError|stack/;

/** Routes that end the signed-in session go last, routes that delete the fixtures before them. */
const order = (route: HttpRoute) => (route.path === logoutRoute.path ? 2 : route.method === 'DELETE' ? 1 : 0);
const routes = [...httpRoutes].sort((a, b) => order(a) - order(b));

/** One seed per route, from the run's: a route's failure replays alone. */
const seedOf = (route: HttpRoute) =>
  [...`${route.method} ${route.path}`].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, SEED);

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('fuzzing every route of the contracts through the running stack', () => {
  let stack: RunningStack;
  let known: KnownValues;
  let cookies: Record<SessionKind, string | undefined>;
  let sent = 0;

  beforeAll(async () => {
    process.stdout.write(`fuzz: seed ${SEED}, ${RUNS_PER_ROUTE} requests per route (replay with FUZZ_SEED=${SEED})\n`);
    const started = Date.now();
    stack = await startTestStack({
      // Every request from its own address (X-Forwarded-For), so address limits rarely refuse
      // before the handlers run; per-user limits high enough for uploads to reach media.
      TRUST_PROXY: '1',
      UPLOAD_LIMIT_PER_MINUTE: '10000',
      UPLOAD_LIMIT_BURST: '10000',
      IMAGE_FORMATTER_LIMIT_PER_MINUTE: '10000',
      IMAGE_FORMATTER_LIMIT_BURST: '10000',
      LOCAL_TRAINING_MS: '200',
      LOCAL_GENERATION_MS: '200',
    });
    const api = apiClient(stack.url, '198.18.42');
    sampleFiles['tiny-png'] = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    sampleFiles['tiny-jpeg'] = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#996633' },
    })
      .jpeg()
      .toBuffer();
    sampleFiles.selfie = await photo('jpeg', 512);

    // Someone with a model, an avatar, a payment and selfies, so valid ids reach the handlers. The
    // first account registered outside production, she is the administrator: the admin routes
    // read what she sends them.
    const ada = await api.register('ada_fuzz');
    const adaUser = (await api.call('/api/user', { session: ada })).json as { id: number; role: string };
    expect(adaUser.role).toBe('admin');
    await api.buyCredits(ada, 'starter');
    const selfieIds = await api.uploadSelfies(ada, 12);
    const model = await api.trainModel(ada, { modelName: 'Fuzz', triggerWord: 'ada_face' }, selfieIds);
    const generated = await api.call('/api/generate-avatar', {
      method: 'POST',
      session: ada,
      body: { promptText: 'ada_face at the sea', customModelId: model.id, numOutputs: 1 },
    });
    const jobId = generated.json.jobId as string;
    await waitFor(
      async () =>
        ((await api.call(`/api/generation-jobs/${jobId}`, { session: ada })).json as GenerationJob).status ===
        'completed',
      { timeoutMs: 30_000, what: 'the avatar generated' },
    );
    const intent = await api.call('/api/create-payment-intent', {
      method: 'POST',
      session: ada,
      body: { packageId: 'starter' },
    });
    const selfies = (await api.call('/api/uploaded-images', { session: ada })).json as UploadedImage[];
    const avatars = ((await api.call('/api/avatars', { session: ada })).json as AvatarsPage).items;
    const packages = (await api.call('/api/credit-packages')).json as { id: string }[];
    const signed = [selfies[0]!.imageUrl, avatars[0]!.thumbnailUrl].map((url) => new URL(url, stack.url));
    known = {
      id: [selfieIds[0]!, avatars[0]!.id, model.id, adaUser.id],
      userId: [adaUser.id],
      customModelId: [model.id],
      jobId: [jobId],
      referenceImageIds: [selfieIds],
      'referenceImageIds[]': selfieIds,
      paymentIntentId: [intent.json.paymentIntentId as string],
      packageId: packages.map((item) => item.id),
      cardNumber: ['4242 4242 4242 4242', '4000000000000002'],
      username: ['ada_fuzz', 'ada_fuzz@example.com'],
      // One signed URL's parts, so that drawn apart they still often make that URL.
      key: [decodeURIComponent(signed[0]!.pathname.replace('/api/files/', ''))],
      expires: [signed[0]!.searchParams.get('expires')!],
      signature: [signed[0]!.searchParams.get('signature')!],
      token: [new URL(avatars[0]!.shareUrl, stack.url).pathname.split('/').pop()!],
      url: signed.map((url) => `${url.pathname}${url.search}`),
      model: [String(model.id)],
    };

    const cy: Session = await api.register('cy_fuzz');
    const bob: Session = await api.register('bob_fuzz');
    expect((await api.call('/api/logout', { method: 'POST', session: bob })).status).toBe(200);
    const access = /likeness_access=([^;]+)/.exec(ada.cookie)![1]!;
    // Never ada's refresh token outside 'valid': used again past its rotation, it would end her session.
    const accessOnly = `likeness_access=${access}`;
    const [header, payload, signature] = access.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    cookies = {
      none: undefined,
      valid: ada.cookie,
      member: cy.cookie,
      revoked: bob.cookie,
      garbage: 'likeness_access=garbage; likeness_refresh=garbage',
      unsigned: `likeness_access=${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      tampered: `likeness_access=${header}.${base64url({ ...claims, sub: '1', role: 'admin' })}.${signature}`,
      'long-refresh': `likeness_refresh=${'r'.repeat(6_000)}`,
      oversized: `likeness_access=${'a'.repeat(20_000)}; ${accessOnly}`,
      mangled: `=;;; likeness_access; =x; likeness_access=a=b=c; "likeness_refresh"=1; \u00ff\u00fe=\u00ff; ${accessOnly}`,
    };
    expect(Object.keys(cookies).sort()).toEqual([...SESSION_KINDS].sort());
    process.stdout.write(`fuzz: the stack and its fixtures took ${Date.now() - started} ms\n`);
  });

  afterAll(async () => {
    process.stdout.write(`fuzz: ${sent} requests sent (seed ${SEED})\n`);
    const exits = await stack?.shutdown();
    // Whatever connections the requests left, every app stopped on SIGTERM by itself, in time.
    for (const [app, exit] of exits ?? []) expect({ app, ...exit }).toMatchObject({ app, signal: null, code: 0 });
  });

  /** What is wrong with an answer, or undefined: a 5xx, no answer, or a refusal outside the error format. */
  function problemWith(request: FuzzRequest, answer: FuzzAnswer): string | undefined {
    if (answer.outcome === 'unsendable') return undefined; // Nothing reached the server.
    if (answer.outcome === 'timed-out') return answer.text;
    if (answer.outcome === 'closed') {
      // An answer given before a body was read may be lost to the reset that follows; a request
      // on the wire in full must be answered.
      return answer.sentInFull ? `closed without an answer: ${answer.text}` : undefined;
    }
    if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 500)}`;
    if (answer.headers['x-content-type-options'] !== 'nosniff')
      return `answered ${answer.status} without the security headers`;
    if (answer.status < 400 || request.method === 'HEAD') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
    }
    const error = errorBodySchema.safeParse(body);
    if (!error.success || error.data.status !== answer.status) {
      return `answered ${answer.status} outside the error format: ${answer.text.slice(0, 200)}`;
    }
    if (INTERNALS.test(answer.text)) return `answered ${answer.status} with internals: ${answer.text.slice(0, 500)}`;
    return undefined;
  }

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'should answer %s without a 5xx or a crash, whatever it is sent',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(requestsFor(route, known), async (request) => {
          sent += 1;
          const answer = await send(stack.url, request, cookies[request.session], REQUEST_TIMEOUT_MS);
          const problem = problemWith(request, answer);
          const exits = stack.unexpectedExits();
          if (problem || exits.length > 0) {
            throw new Error(
              `${problem ?? `${exits.map((exit) => exit.app).join(', ')} exited`}\nfor ${describeRequest(request)}`,
            );
          }
        }),
        { seed: seedOf(route), numRuns: RUNS_PER_ROUTE, interruptAfterTimeLimit: 90_000 },
      );
      expect(stack.crashReport()).toBeUndefined();
      // The signed-in requests stay signed in (only logout, the last route, ends the session).
      if (route.path !== logoutRoute.path) {
        const user = await send(
          stack.url,
          { method: 'GET', path: '/api/user', headers: {}, session: 'valid' },
          cookies.valid,
          REQUEST_TIMEOUT_MS,
        );
        expect(user.status).toBe(200);
      }
    },
  );
});
