import { AuthRpc, SESSION_REVOCATIONS_BUCKET, type Session } from '@likeness/contracts';
import { createServiceApp, loadConfig, namespacedStream, runMigrations } from '@likeness/nest-kit';
import { createTestRpcClient, createTestServiceEnvironment } from '@likeness/testing';
import { Kvm } from '@nats-io/kv';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { authService } from '../src/auth.service-definition.js';
import { SessionsService } from '../src/sessions/sessions.service.js';

type Environment = Awaited<ReturnType<typeof createTestServiceEnvironment>>;

async function startAuth(env: Environment, extra: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadConfig(authService.configSchema, { ...env.env, ...extra });
  await runMigrations(authService.database(config));
  return createServiceApp(authService, config);
}

describe('auth service', () => {
  let env: Environment;
  let app: NestFastifyApplication;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;
  let db: pg.Client;
  let first: Session;

  beforeAll(async () => {
    env = await createTestServiceEnvironment('auth');
    app = await startAuth(env);
    client = await createTestRpcClient(env.natsUrl, env.namespace);
    db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await client?.close();
    await app?.close();
    await env?.database.drop();
  });

  describe('register', () => {
    it('should make the first account the administrator and sign it in', async () => {
      first = await client.rpc.call(AuthRpc.register, {
        username: 'Grace_H',
        email: 'Grace@Example.com',
        password: 'hopper-1906',
      });
      expect(first.user).toMatchObject({ id: 1, username: 'Grace_H', email: 'grace@example.com', role: 'admin' });
      const claims = jwt.verify(first.accessToken, env.env['JWT_SECRET']!, {
        audience: 'likeness',
        issuer: 'likeness',
      });
      expect(claims).toMatchObject({ sub: '1', username: 'Grace_H', role: 'admin' });
    });

    it('should make later accounts regular users', async () => {
      const session = await client.rpc.call(AuthRpc.register, {
        username: 'alan',
        email: 'alan@example.com',
        password: 'enigma-1912',
      });
      expect(session.user).toMatchObject({ id: 2, role: 'user' });
    });

    it('should store only an argon2id hash with the OWASP parameters', async () => {
      const { rows } = await db.query<{ password_hash: string }>(`SELECT password_hash FROM auth.users WHERE id = 1`);
      const [, algorithm, , parameters] = rows[0]?.password_hash.split('$') ?? [];
      expect(algorithm).toBe('argon2id');
      expect(parameters?.split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
      expect(rows[0]?.password_hash).not.toContain('hopper-1906');
    });

    it('should refuse a username taken in any letter case, and a taken e-mail', async () => {
      await expect(
        client.rpc.call(AuthRpc.register, { username: 'grace_h', email: 'other@example.com', password: 'secret1' }),
      ).rejects.toMatchObject({ code: 'AUTH.USERNAME_TAKEN', status: 409 });
      await expect(
        client.rpc.call(AuthRpc.register, { username: 'someone', email: 'GRACE@example.com', password: 'secret1' }),
      ).rejects.toMatchObject({ code: 'AUTH.EMAIL_TAKEN', status: 409 });
    });

    it('should let exactly one of many simultaneous registrations of a name win', async () => {
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, index) =>
          client.rpc.call(AuthRpc.register, {
            username: 'racer',
            email: `racer${index}@example.com`,
            password: 'secret1',
          }),
        ),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      const refusals = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
      expect(refusals.map((refusal) => (refusal.reason as { code: string }).code)).toEqual(
        Array(7).fill('AUTH.USERNAME_TAKEN'),
      );
    });

    it('should announce every account through the outbox', async () => {
      const { rows } = await db.query<{ subject: string; envelope: { payload: { username: string } } }>(
        `SELECT subject, envelope FROM auth.outbox WHERE subject LIKE 'events.%' ORDER BY created_at`,
      );
      expect(rows.map((row) => row.subject)).toEqual(Array(3).fill('events.auth.UserRegistered.v1'));
      expect(rows.map((row) => row.envelope.payload.username)).toEqual(['Grace_H', 'alan', 'racer']);
    });
  });

  describe('login', () => {
    it('should accept the username or the e-mail address in any case', async () => {
      await expect(
        client.rpc.call(AuthRpc.login, { username: 'GRACE_h', password: 'hopper-1906' }),
      ).resolves.toMatchObject({
        user: { id: 1 },
      });
      await expect(
        client.rpc.call(AuthRpc.login, { username: 'grace@EXAMPLE.com', password: 'hopper-1906' }),
      ).resolves.toMatchObject({
        user: { id: 1 },
      });
    });

    it('should not say whether the account or the password was wrong', async () => {
      const wrongPassword = await client.rpc
        .call(AuthRpc.login, { username: 'alan', password: 'not-it-at-all' })
        .catch((error: unknown) => error);
      const noAccount = await client.rpc
        .call(AuthRpc.login, { username: 'nobody', password: 'not-it-at-all' })
        .catch((error: unknown) => error);
      expect(wrongPassword).toMatchObject({ code: 'AUTH.INVALID_CREDENTIALS', status: 401 });
      expect(noAccount).toMatchObject({
        code: 'AUTH.INVALID_CREDENTIALS',
        status: 401,
        message: (wrongPassword as Error).message,
      });
    });
  });

  describe('refresh and logout', () => {
    it('should rotate the refresh token', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      const next = await client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken });
      expect(next.refreshToken).not.toBe(login.refreshToken);
      expect(next.user.id).toBe(2);
      // A request that raced with the rotation may still use the old token for a moment.
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken })).resolves.toMatchObject({
        user: { id: 2 },
      });
    });

    it('should revoke the whole session when a rotated token is replayed later', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      const next = await client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken });
      await db.query(
        `UPDATE auth.refresh_tokens SET rotated_at = now() - interval '5 minutes' WHERE rotated_at IS NOT NULL`,
      );
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
      // The thief's replay also ends the legitimate holder's session.
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: next.refreshToken })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
    });

    it('should refuse a refresh token after logout', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      await expect(client.rpc.call(AuthRpc.logout, { refreshToken: login.refreshToken })).resolves.toMatchObject({
        revoked: true,
      });
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
    });

    it('should refuse an unknown refresh token', async () => {
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: 'made-up' })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
    });

    it('should give requests racing one rotation the same successor, leaving one live token', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map(() => client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken })),
      );
      expect(new Set([a!.refreshToken, b!.refreshToken, c!.refreshToken]).size).toBe(1);
      expect(a!.refreshToken).not.toBe(login.refreshToken);
      const sessionId = sessionOf(login.accessToken);
      expect(sessionOf(a!.accessToken)).toBe(sessionId);
      const { rows } = await db.query<{ live: string }>(
        `SELECT count(*) AS live FROM auth.refresh_tokens
          WHERE family_id = $1 AND rotated_at IS NULL AND revoked_at IS NULL`,
        [sessionId],
      );
      expect(Number(rows[0]!.live)).toBe(1);
      // A later rotation within the grace window: the first token leads to the newest successor.
      const next = await client.rpc.call(AuthRpc.refresh, { refreshToken: a!.refreshToken });
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken })).resolves.toMatchObject({
        refreshToken: next.refreshToken,
      });
    });

    it('should keep successors only as ciphertext the old token opens', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      const next = await client.rpc.call(AuthRpc.refresh, { refreshToken: login.refreshToken });
      const { rows } = await db.query<{ sealed: string }>(
        `SELECT successor_sealed AS sealed FROM auth.refresh_tokens WHERE family_id = $1 AND rotated_at IS NOT NULL`,
        [sessionOf(login.accessToken)],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sealed).not.toContain(next.refreshToken);
      expect(Buffer.from(rows[0]!.sealed, 'base64url').toString('latin1')).not.toContain(next.refreshToken);
    });
  });

  describe('revoking sessions', () => {
    const revocationList = async () => {
      const kv = await new Kvm(client.connection).open(
        namespacedStream({ namespace: env.namespace }, SESSION_REVOCATIONS_BUCKET),
      );
      const entries = new Map<string, unknown>();
      for await (const key of await kv.keys()) entries.set(key, (await kv.get(key))?.json());
      return entries;
    };

    it('should end every session of a user but the one kept, and list them for the gateways', async () => {
      const sessions = [];
      for (let index = 0; index < 3; index += 1) {
        sessions.push(await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' }));
      }
      const [kept, ...ended] = sessions.map((session) => ({ ...session, sessionId: sessionOf(session.accessToken) }));

      const revoked = await app.get(SessionsService).revokeSessions(2, { except: kept!.sessionId });

      expect(revoked.map((revocation) => revocation.sessionId).sort()).toEqual(
        expect.arrayContaining(ended.map((session) => session.sessionId)),
      );
      expect(revoked.map((revocation) => revocation.sessionId)).not.toContain(kept!.sessionId);
      for (const session of ended) {
        await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: session.refreshToken })).rejects.toMatchObject({
          code: 'AUTH.SESSION_EXPIRED',
        });
      }
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: kept!.refreshToken })).resolves.toMatchObject({
        user: { id: 2 },
      });
      const list = await revocationList();
      for (const session of ended) {
        expect(list.get(session.sessionId)).toEqual({ sessionId: session.sessionId, until: expect.any(String) });
        // Kept as long as the session's last access token can live.
        const until = Date.parse((list.get(session.sessionId) as { until: string }).until);
        expect(until).toBeGreaterThanOrEqual(jwtExpiry(session.accessToken));
      }
      expect(list.has(kept!.sessionId)).toBe(false);
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM auth.outbox WHERE subject = 'events.auth.SessionsRevoked.v1'`,
      );
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(1);
    });

    it('should say which session a logout ended', async () => {
      const login = await client.rpc.call(AuthRpc.login, { username: 'alan', password: 'enigma-1912' });
      const result = await client.rpc.call(AuthRpc.logout, { refreshToken: login.refreshToken });
      expect(result).toEqual({
        revoked: true,
        revocation: { sessionId: sessionOf(login.accessToken), until: expect.any(String) },
      });
      expect((await revocationList()).has(sessionOf(login.accessToken))).toBe(true);
    });
  });

  describe('login limits', () => {
    it('should refuse past the limit with the wait in the error, which crosses NATS', async () => {
      const results = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        results.push(
          await client.rpc
            .call(AuthRpc.login, { username: 'racer', password: 'wrong-password', ip: '192.0.2.7' })
            .catch((error: unknown) => error),
        );
      }
      expect(results.slice(0, 5).map((error) => (error as { code: string }).code)).toEqual(
        Array(5).fill('AUTH.INVALID_CREDENTIALS'),
      );
      expect(results[5]).toMatchObject({ code: 'COMMON.RATE_LIMITED', status: 429 });
      // A token comes back every 120 s: the wait is what is left of it once the six tries are made.
      const { retryAfterSeconds } = results[5] as { retryAfterSeconds: number };
      expect(retryAfterSeconds).toBeGreaterThan(60);
      expect(retryAfterSeconds).toBeLessThanOrEqual(120);
    });
  });
});

/** The session id an access token names. */
function sessionOf(accessToken: string): string {
  return (jwt.decode(accessToken) as { sid: string }).sid;
}

function jwtExpiry(accessToken: string): number {
  return (jwt.decode(accessToken) as { exp: number }).exp * 1000;
}

describe('administrator bootstrap', () => {
  it('should create the administrator as user 1 from the environment before anyone registers', async () => {
    const env = await createTestServiceEnvironment('admin');
    const app = await startAuth(env, {
      ADMIN_USERNAME: 'root_admin',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'a-long-admin-password',
    });
    const client = await createTestRpcClient(env.natsUrl, env.namespace);
    try {
      await expect(client.rpc.call(AuthRpc.getUser, { userId: 1 })).resolves.toMatchObject({
        username: 'root_admin',
        role: 'admin',
      });
      const next = await client.rpc.call(AuthRpc.register, {
        username: 'first_user',
        email: 'first@example.com',
        password: 'secret1',
      });
      expect(next.user).toMatchObject({ id: 2, role: 'user' });
      await expect(
        client.rpc.call(AuthRpc.login, { username: 'admin@example.com', password: 'a-long-admin-password' }),
      ).resolves.toMatchObject({
        user: { id: 1, role: 'admin' },
      });
    } finally {
      await client.close();
      await app.close();
      await env.database.drop();
    }
  });

  it('should never make a registrant the administrator in production, keeping id 1 for the bootstrap', async () => {
    const env = await createTestServiceEnvironment('prodadmin');
    const production = { NODE_ENV: 'production', MAIL_PROVIDER: 'mailbox', PUBLIC_URL: 'https://likeness.example' };
    let app = await startAuth(env, production);
    const client = await createTestRpcClient(env.natsUrl, env.namespace);
    try {
      const first = await client.rpc.call(AuthRpc.register, {
        username: 'first_comer',
        email: 'first@example.com',
        password: 'secret1',
      });
      expect(first.user).toMatchObject({ id: 2, role: 'user' });
      await expect(client.rpc.call(AuthRpc.getUser, { userId: 1 })).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
      await app.close();

      app = await startAuth(env, {
        ...production,
        ADMIN_USERNAME: 'root_admin',
        ADMIN_EMAIL: 'admin@example.com',
        ADMIN_PASSWORD: 'a-long-admin-password',
      });
      await expect(client.rpc.call(AuthRpc.getUser, { userId: 1 })).resolves.toMatchObject({
        username: 'root_admin',
        role: 'admin',
      });
      await expect(client.rpc.call(AuthRpc.getUser, { userId: 2 })).resolves.toMatchObject({ role: 'user' });
    } finally {
      await client.close();
      await app.close();
      await env.database.drop();
    }
  });

  it('should refuse to start with only some of the administrator settings', () => {
    expect(() =>
      loadConfig(authService.configSchema, {
        DATABASE_URL: 'postgres://x/y',
        JWT_SECRET: 'x'.repeat(32),
        ADMIN_USERNAME: 'root',
      }),
    ).toThrow(/ADMIN_USERNAME: set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together/);
  });
});
