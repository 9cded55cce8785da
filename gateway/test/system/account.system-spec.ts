import { randomUUID } from 'node:crypto';
import {
  AuthEvents,
  AuthJobs,
  type CreditHistoryResponse,
  type CustomModel,
  EVENTS_STREAM,
  JOBS_STREAM,
} from '@likeness/contracts';
import { namespaced, namespacedStream } from '@likeness/nest-kit';
import {
  type CaughtMail,
  type SmtpCatcher,
  linkIn,
  readDevMailbox,
  startSmtpCatcher,
  waitFor,
} from '@likeness/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

const PUBLIC_URL = 'https://likeness.example';
const PASSWORD = 'secret-password';
const REQUESTED = "If an account with that email exists, you'll receive a password reset link shortly";
const INVALID_LINK = 'This password reset link is invalid or has expired.';
/** Local trainings finish this long after they start. */
const LOCAL_TRAINING_MS = '1500';

type Api = ReturnType<typeof apiClient>;

/** The cookies a browser holds after a response (cleared ones dropped). */
function sessionFrom(headers: Headers): Session {
  return {
    cookie: headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0]!)
      .filter((pair) => !pair.endsWith('='))
      .join('; '),
  };
}

async function login(api: Api, username: string, password: string): Promise<Session> {
  const result = await api.call('/api/login', { method: 'POST', body: { username, password } });
  expect(result.status).toBe(200);
  return sessionFrom(result.headers);
}

const signedIn = async (api: Api, session: Session) => (await api.call('/api/user', { session })).status;

/** The reset flow as a person goes through it, whichever way the mail travels. */
async function resetThroughMail(api: Api, username: string, mails: () => Promise<CaughtMail[]>): Promise<string> {
  const email = `${username}@example.com`;
  const session = await api.register(username);

  const known = await api.call('/api/request-password-reset', { method: 'POST', body: { email } });
  const unknown = await api.call('/api/request-password-reset', {
    method: 'POST',
    body: { email: `nobody-${username}@example.com` },
  });
  expect([known.status, known.json]).toEqual([200, { message: REQUESTED }]);
  expect([unknown.status, unknown.json]).toEqual([known.status, known.json]);

  const mail = await waitFor(
    async () => (await mails()).find((candidate) => candidate.to.includes(email) && /^Reset/.test(candidate.subject)),
    { what: `the reset mail to ${email}`, timeoutMs: 20_000 },
  );
  expect(mail.subject).toBe('Reset your Likeness password');
  const link = linkIn(mail, `${PUBLIC_URL}/reset-password?token=`)!;
  expect(mail.html).toContain(`href="${link}"`);
  const token = new URL(link).searchParams.get('token')!;

  const reset = await api.call('/api/reset-password', {
    method: 'POST',
    body: { token, password: 'brand-new-password', confirmPassword: 'brand-new-password' },
  });
  expect(reset.status).toBe(200);
  expect(reset.json).toEqual({ message: expect.stringMatching(/reset/) });
  // Every session ended, the old password too.
  expect(await signedIn(api, session)).toBe(401);
  expectError(
    await api.call('/api/login', { method: 'POST', body: { username, password: PASSWORD } }),
    401,
    'AUTH.INVALID_CREDENTIALS',
  );
  await login(api, username, 'brand-new-password');
  // Nothing went to the unknown address.
  expect((await mails()).filter((sent) => sent.to.includes(`nobody-${username}@example.com`))).toEqual([]);
  return token;
}

describe('the account: password reset and change, mails and the credit history (dev mailbox)', () => {
  let stack: RunningStack;
  let api: Api;
  let db: pg.Client;
  const mailbox = () => readDevMailbox(stack.env['DATA_DIR']!);
  const mailsTo = async (to: string) => (await mailbox()).filter((mail) => mail.to.includes(to));

  beforeAll(async () => {
    stack = await startTestStack(
      // Every call comes from one address here: the gateway's per-address limits stay out of the way.
      {
        LOCAL_TRAINING_MS,
        REGISTER_LIMIT_PER_IP: '100',
        LOGIN_LIMIT_PER_IP: '100',
        PASSWORD_RESET_LIMIT_PER_IP: '100',
      },
      { appEnv: { auth: { PUBLIC_URL, PASSWORD_RESET_LIMIT_PER_ADDRESS: '3' } } },
    );
    api = apiClient(stack.url, '198.18.7');
    db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await stack?.shutdown();
  });

  describe('password reset', () => {
    let used: string;

    it('should mail a working link to a known address only, answering an unknown one the same', async () => {
      used = await resetThroughMail(api, 'reset_mailbox', mailbox);
    });

    it('should refuse a replayed, an expired and a made-up token with the SPEC message', async () => {
      const attempt = (token: string) =>
        api.call('/api/reset-password', {
          method: 'POST',
          body: { token, password: 'another-password', confirmPassword: 'another-password' },
        });
      expectError(await attempt(used), 400, 'AUTH.RESET_TOKEN_INVALID', INVALID_LINK);
      expectError(await attempt(randomUUID()), 400, 'AUTH.RESET_TOKEN_INVALID', INVALID_LINK);

      await api.register('reset_expired');
      await api.call('/api/request-password-reset', { method: 'POST', body: { email: 'reset_expired@example.com' } });
      const mail = await waitFor(async () =>
        (await mailsTo('reset_expired@example.com')).find((candidate) => /^Reset/.test(candidate.subject)),
      );
      await db.query(
        `UPDATE auth.password_reset_tokens SET expires_at = now() - interval '1 minute'
         WHERE user_id = (SELECT id FROM auth.users WHERE username = 'reset_expired')`,
      );
      const expired = new URL(linkIn(mail, `${PUBLIC_URL}/reset-password`)!).searchParams.get('token')!;
      expectError(await attempt(expired), 400, 'AUTH.RESET_TOKEN_INVALID', INVALID_LINK);
      await login(api, 'reset_expired', PASSWORD);
    });

    it("should change only the password of the token's owner, whoever sends it", async () => {
      const mallory = await api.register('reset_mallory');
      await api.register('reset_victim');
      await api.call('/api/request-password-reset', { method: 'POST', body: { email: 'reset_victim@example.com' } });
      const mail = await waitFor(async () =>
        (await mailsTo('reset_victim@example.com')).find((candidate) => /^Reset/.test(candidate.subject)),
      );
      const token = new URL(linkIn(mail, `${PUBLIC_URL}/reset-password`)!).searchParams.get('token')!;
      // Sent from another signed-in account: the token, not the session, names whose password changes.
      const result = await api.call('/api/reset-password', {
        method: 'POST',
        session: mallory,
        body: { token, password: 'victim-new-password', confirmPassword: 'victim-new-password' },
      });
      expect(result.status).toBe(200);
      await login(api, 'reset_mallory', PASSWORD);
      await login(api, 'reset_victim', 'victim-new-password');
      expect(await signedIn(api, mallory)).toBe(200);
    });

    it('should refuse bad input with the SPEC messages, never a 5xx', async () => {
      const cases: [string, unknown, string][] = [
        ['/api/request-password-reset', { email: 'not-an-address' }, 'Please enter a valid email address'],
        ['/api/request-password-reset', {}, 'Please enter a valid email address'],
        ['/api/request-password-reset', { email: 'a\u0000@example.com' }, 'invisible control characters'],
        ['/api/reset-password', { password: 'secret1', confirmPassword: 'secret1' }, 'Reset token is required'],
        [
          '/api/reset-password',
          { token: 't', password: 'secret1', confirmPassword: 'secret2' },
          'Passwords do not match',
        ],
        ['/api/reset-password', { token: 't', password: '123', confirmPassword: '123' }, 'at least 6 characters'],
        [
          '/api/reset-password',
          { token: 'x'.repeat(5000), password: 'secret1', confirmPassword: 'secret1' },
          INVALID_LINK,
        ],
        ['/api/reset-password', [], 'JSON object'],
      ];
      for (const [path, body, message] of cases) {
        expectError(await api.call(path, { method: 'POST', body }), 400, 'COMMON.VALIDATION_FAILED', message);
      }
      const mismatch = await api.call('/api/reset-password', {
        method: 'POST',
        body: { token: 't', password: 'secret1', confirmPassword: 'secret2' },
      });
      expect(mismatch.json.issues).toEqual([{ path: 'confirmPassword', message: 'Passwords do not match' }]);
    });

    it('should limit requests per address, known or not, alike', async () => {
      await api.register('reset_flood');
      for (const email of ['reset_flood@example.com', 'reset-flood-nobody@example.com']) {
        const answers = [];
        for (let request = 0; request < 4; request += 1) {
          answers.push((await api.call('/api/request-password-reset', { method: 'POST', body: { email } })).status);
        }
        expect(answers).toEqual([200, 200, 200, 429]);
      }
    });
  });

  describe('password change', () => {
    it('should keep the session that changed it signed in and sign every other one out', async () => {
      const laptop = await api.register('changer');
      const phone = await login(api, 'changer', PASSWORD);
      const change = (session: Session | undefined, body: unknown) =>
        api.call('/api/change-password', { method: 'POST', ...(session ? { session } : {}), body });

      const wrong = await change(laptop, {
        currentPassword: 'not-my-password',
        newPassword: 'changed-password',
        confirmPassword: 'changed-password',
      });
      expectError(wrong, 403, 'AUTH.WRONG_PASSWORD', 'Current password is incorrect');
      expect(wrong.json.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect' }]);
      expectError(
        await change(laptop, { currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD }),
        400,
        'COMMON.VALIDATION_FAILED',
        'New password must be different from the current password',
      );
      expectError(
        await change(undefined, {
          currentPassword: PASSWORD,
          newPassword: 'x-password',
          confirmPassword: 'x-password',
        }),
        401,
        'AUTH.UNAUTHENTICATED',
      );
      expect([await signedIn(api, laptop), await signedIn(api, phone)]).toEqual([200, 200]);

      const changed = await change(laptop, {
        currentPassword: PASSWORD,
        newPassword: 'changed-password',
        confirmPassword: 'changed-password',
      });

      expect([changed.status, changed.json]).toEqual([200, { message: 'Password updated' }]);
      expect(await signedIn(api, laptop)).toBe(200);
      expect(await signedIn(api, phone)).toBe(401);
      await login(api, 'changer', 'changed-password');
      const notice = await waitFor(async () =>
        (await mailsTo('changer@example.com')).find((mail) => /password was changed/.test(mail.subject)),
      );
      expect(notice.text).toContain(`${PUBLIC_URL}/forgot-password`);
    });
  });

  describe('mails on events, and the credit history', () => {
    let kat: Session;
    let modelId: number;

    beforeAll(async () => {
      kat = await api.register('kat_buyer');
      await api.buyCredits(kat, 'creator');
      const selfies = await api.uploadSelfies(kat, 12);
      const trained = await api.call('/api/train-model', {
        method: 'POST',
        session: kat,
        body: { modelName: 'Kat model', triggerWord: 'kat_face', referenceImageIds: selfies },
      });
      expect(trained.status).toBe(201);
      modelId = (trained.json as CustomModel).id;
    });

    it('should welcome once, however often UserRegistered is delivered again', async () => {
      const welcome = () =>
        mailsTo('kat_buyer@example.com').then((mails) => mails.filter((mail) => /^Welcome/.test(mail.subject)));
      await waitFor(async () => ((await welcome()).length === 1 ? true : undefined));
      const { rows } = await db.query<{ envelope: { id: string; payload: unknown; occurredAt: string } }>(
        `SELECT envelope FROM auth.outbox WHERE subject = 'events.auth.UserRegistered.v1'
           AND envelope->'payload'->>'username' = 'kat_buyer'`,
      );
      const nats = await connect({ servers: stack.env['NATS_URL']! });
      const namespace = { namespace: stack.env['NATS_NAMESPACE']! };
      try {
        for (const copy of [1, 2]) {
          await jetstream(nats).publish(
            namespaced(namespace, AuthEvents.UserRegistered.subject),
            JSON.stringify(rows[0]!.envelope),
            { msgID: `${rows[0]!.envelope.id}-again-${copy}` },
          );
        }
        // Both copies handled by auth's consumer, and any mail job that queued sent.
        const jsm = await jetstreamManager(nats);
        await waitFor(
          async () => {
            const infos = await Promise.all([
              jsm.consumers.info(namespacedStream(namespace, EVENTS_STREAM), 'auth-auth-UserRegistered-v1'),
              jsm.consumers.info(namespacedStream(namespace, JOBS_STREAM), AuthJobs.sendAccountMail.consumer),
            ]);
            const unpublished = await db.query(`SELECT 1 FROM auth.outbox WHERE published_at IS NULL`);
            return (
              unpublished.rows.length === 0 &&
              infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0)
            );
          },
          { what: 'the copies and any mail they queued to be handled' },
        );
      } finally {
        await nats.close();
      }
      expect(await welcome()).toHaveLength(1);
    });

    it('should send a receipt and say the model is ready, each once', async () => {
      const mails = await waitFor(
        async () => {
          const all = await mailsTo('kat_buyer@example.com');
          return all.some((mail) => /is ready/.test(mail.subject)) ? all : undefined;
        },
        { timeoutMs: 30_000, what: 'the model-ready mail' },
      );
      const receipt = mails.filter((mail) => /receipt/.test(mail.subject));
      expect(receipt.map((mail) => mail.subject)).toEqual(['Your Likeness receipt: Creator Pack, 125 credits']);
      expect(receipt[0]!.text).toMatch(/Amount:\s+\$11\.00/);
      const ready = mails.filter((mail) => /is ready/.test(mail.subject));
      expect(ready.map((mail) => mail.subject)).toEqual(['Your model "Kat model" is ready']);
      expect(ready[0]!.text).toContain(`${PUBLIC_URL}/create`);
    });

    it("should list the caller's own credit lines, newest first, adding up to the credits shown", async () => {
      const other = await api.register('kat_neighbour');
      await waitFor(
        async () => {
          const models = (await api.call('/api/custom-models', { session: kat })).json as CustomModel[];
          return models.find((model) => model.id === modelId)?.status === 'completed';
        },
        { timeoutMs: 30_000, what: 'the training to complete' },
      );
      const history = await waitFor(async () => {
        const result = (await api.call('/api/credit-history', { session: kat })).json as CreditHistoryResponse;
        return result.entries.some((entry) => entry.kind === 'capture') ? result : undefined;
      });
      expect(history.entries.map((entry) => [entry.kind, entry.credits])).toEqual([
        ['capture', 0],
        ['hold', -30],
        ['purchase', 125],
        ['welcome', 5],
      ]);
      expect(history.entries[2]).toMatchObject({ description: 'Creator Pack purchased', amountCents: 1100 });
      expect(history.entries[0]!.reference).toMatch(/^training:/);
      expect(history.entries[1]!.reference).toBe(history.entries[0]!.reference);
      expect(history).toMatchObject({ page: 1, pageSize: 20, total: 4 });
      const credits = await api.credits(kat);
      expect(history.entries.reduce((sum, entry) => sum + entry.credits, 0)).toBe(credits);

      const paged = await api.call('/api/credit-history?page=2&pageSize=3', { session: kat });
      expect(paged.json).toMatchObject({ page: 2, pageSize: 3, total: 4, entries: [{ kind: 'welcome' }] });
      const neighbour = await waitFor(async () => {
        const result = (await api.call('/api/credit-history', { session: other })).json as CreditHistoryResponse;
        return result.total > 0 ? result : undefined;
      });
      expect(neighbour.entries.map((entry) => entry.kind)).toEqual(['welcome']);
    });

    it('should refuse a bad page or a visitor who is not signed in', async () => {
      for (const query of ['page=0', 'pageSize=101', 'page=abc', 'page=1&page=2', 'pageSize=1.5']) {
        expectError(await api.call(`/api/credit-history?${query}`, { session: kat }), 400, 'COMMON.VALIDATION_FAILED');
      }
      expectError(await api.call('/api/credit-history'), 401, 'AUTH.UNAUTHENTICATED');
    });
  });
});

describe('password reset with the mail going out over SMTP', () => {
  let stack: RunningStack;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    stack = await startTestStack(
      { PASSWORD_RESET_LIMIT_PER_IP: '4' },
      { appEnv: { auth: { PUBLIC_URL, SMTP_URL: smtp.url } } },
    );
  });

  afterAll(async () => {
    await stack?.shutdown();
    await smtp?.close();
  });

  it('should deliver a working link through the SMTP server, and write nothing to the dev mailbox', async () => {
    const api = apiClient(stack.url, '198.18.8');
    await resetThroughMail(api, 'reset_smtp', async () => smtp.received);
    expect(smtp.received.find((mail) => /^Reset/.test(mail.subject))?.from).toBe('noreply@likeness.local');
    expect(await readDevMailbox(stack.env['DATA_DIR']!)).toEqual([]);

    // Two requests and a reset so far from this address: one more, then the gateway refuses.
    const again = () =>
      api.call('/api/request-password-reset', { method: 'POST', body: { email: `${randomUUID()}@example.com` } });
    expect((await again()).status).toBe(200);
    const refused = await again();
    expectError(refused, 429, 'COMMON.RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
