import { AuthRpc, type Session } from '@likeness/contracts';
import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import { createTestRpcClient, createTestServiceEnvironment } from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { authService } from '../src/auth.service-definition.js';

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
        `SELECT subject, envelope FROM auth.outbox ORDER BY created_at`,
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
      await expect(client.rpc.call(AuthRpc.logout, { refreshToken: login.refreshToken })).resolves.toEqual({
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
  });
});

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
