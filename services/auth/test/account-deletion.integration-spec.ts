import { ACCOUNT_DELETED_MESSAGE, AuthRpc, WRONG_PASSWORD_MESSAGE } from '@likeness/contracts';
import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import {
  createTestRpcClient,
  createTestServiceEnvironment,
  expectSnapshotPaging,
  readDevMailbox,
  waitFor,
} from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { authService } from '../src/auth.service-definition.js';
import { AccountDeletionService } from '../src/users/account-deletion.service.js';

describe(AccountDeletionService.name, () => {
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let app: NestFastifyApplication;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;
  let db: pg.Pool;

  beforeAll(async () => {
    env = await createTestServiceEnvironment('auth-deletion');
    const config = loadConfig(authService.configSchema, env.env);
    await runMigrations(authService.database(config));
    app = await createServiceApp(authService, config);
    client = await createTestRpcClient(env.natsUrl, env.namespace);
    db = new pg.Pool({ connectionString: env.database.url, max: 2 });
  });

  afterAll(async () => {
    await db?.end();
    await client?.close();
    await app?.close();
    await env?.database.drop();
  });

  const register = (username: string, password = 'secret-password') =>
    client.rpc.call(AuthRpc.register, { username, email: `${username}@example.com`, password });
  const login = (username: string, password = 'secret-password') =>
    client.rpc.call(AuthRpc.login, { username, password });
  const deletedEvents = async (userId: number) =>
    (
      await db.query(
        `SELECT envelope->'payload' AS payload FROM auth.outbox
         WHERE subject = 'events.auth.UserDeleted.v1' AND (envelope->'payload'->>'userId')::int = $1`,
        [userId],
      )
    ).rows.map((row) => row.payload);

  it('should refuse a wrong password on the password field and change nothing', async () => {
    const { user } = await register('wrong_pw');
    await expect(
      client.rpc.call(AuthRpc.deleteAccount, { userId: user.id, password: 'not-the-password' }),
    ).rejects.toMatchObject({
      code: 'AUTH.WRONG_PASSWORD',
      message: WRONG_PASSWORD_MESSAGE,
      issues: [{ path: 'password', message: WRONG_PASSWORD_MESSAGE }],
    });
    await expect(login('wrong_pw')).resolves.toMatchObject({ user: { id: user.id } });
    expect(await deletedEvents(user.id)).toEqual([]);
  });

  it('should end every session, refuse login and lookups, free the name and address, and announce it once', async () => {
    const first = await register('Leaving_Lea');
    const second = await login('leaving_lea@example.com');
    const bystander = await register('staying_sam');

    const answer = await client.rpc.call(AuthRpc.deleteAccount, {
      userId: first.user.id,
      password: 'secret-password',
    });
    expect(answer.message).toBe(ACCOUNT_DELETED_MESSAGE);
    const sessionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    expect(answer.revocations.map((revocation) => revocation.sessionId).sort()).toEqual(
      [sessionOf(first.accessToken), sessionOf(second.accessToken)].sort(),
    );

    // No way back in: by name, by address, by refresh token; and no one finds the account.
    for (const name of ['Leaving_Lea', 'leaving_lea@example.com']) {
      await expect(login(name)).rejects.toMatchObject({ code: 'AUTH.INVALID_CREDENTIALS' });
    }
    for (const { refreshToken } of [first, second]) {
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
    }
    await expect(client.rpc.call(AuthRpc.getUser, { userId: first.user.id })).rejects.toMatchObject({
      code: 'COMMON.NOT_FOUND',
    });
    await expect(
      client.rpc.call(AuthRpc.deleteAccount, { userId: first.user.id, password: 'secret-password' }),
    ).rejects.toMatchObject({ code: 'AUTH.UNAUTHENTICATED' });

    // The row keeps nothing personal, and UserDeleted went out once, naming no one.
    const { rows } = await db.query(`SELECT username, email, password_hash, deleted_at FROM auth.users WHERE id = $1`, [
      first.user.id,
    ]);
    expect(rows[0]).toEqual({
      username: `deleted-${first.user.id}`,
      email: `deleted:${first.user.id}`,
      password_hash: '',
      deleted_at: expect.any(Date),
    });
    expect(await deletedEvents(first.user.id)).toEqual([{ userId: first.user.id, deletedAt: expect.any(String) }]);
    const tokens = await db.query(`SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE user_id = $1`, [
      first.user.id,
    ]);
    expect(tokens.rows[0].n).toBe(0);

    // A confirmation goes to the old address (the dev mailbox here), once.
    const confirmations = () =>
      readDevMailbox(env.env['DATA_DIR']!).then((mails) =>
        mails.filter((mail) => mail.to.includes('leaving_lea@example.com') && /account was deleted/.test(mail.subject)),
      );
    const [confirmation] = await waitFor(
      async () => ((await confirmations()).length > 0 ? confirmations() : undefined),
      {
        what: 'the confirmation mail',
      },
    );
    expect(confirmation!.subject).toBe('Your Likeness account was deleted');
    expect(confirmation!.text).toContain('Hi Leaving_Lea,');
    expect(confirmation!.text).toMatch(/Your account was deleted as you asked/);

    // The same name and address make a new account, in any letter case.
    const again = await client.rpc.call(AuthRpc.register, {
      username: 'leaving_LEA',
      email: 'Leaving_Lea@example.com',
      password: 'another-password',
    });
    expect(again.user.id).not.toBe(first.user.id);
    await expect(login('leaving_lea', 'another-password')).resolves.toMatchObject({ user: { id: again.user.id } });

    // The other account is untouched.
    await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: bystander.refreshToken })).resolves.toMatchObject({
      user: { id: bystander.user.id },
    });
  });

  it('should delete once when asked twice at the same moment', async () => {
    const { user } = await register('twice_tom');
    const outcomes = await Promise.allSettled(
      [1, 2].map(() => client.rpc.call(AuthRpc.deleteAccount, { userId: user.id, password: 'secret-password' })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await deletedEvents(user.id)).toHaveLength(1);
  });

  it("should snapshot the live accounts page by page, each at its UserRegistered's time, leaving deleted ones out", async () => {
    const kept = await Promise.all(['snap_ana', 'snap_ben', 'snap_cai'].map((name) => register(name)));
    const gone = await register('snap_gone');
    await client.rpc.call(AuthRpc.deleteAccount, { userId: gone.user.id, password: 'secret-password' });

    const items = await expectSnapshotPaging(client.rpc, AuthRpc.snapshotUsers, (item) => item.userId);
    const { rows } = await db.query(
      `SELECT envelope FROM auth.outbox WHERE subject = 'events.auth.UserRegistered.v1' ORDER BY (envelope->'payload'->>'userId')::int`,
    );
    const deleted = (await db.query(`SELECT id FROM auth.users WHERE deleted_at IS NOT NULL`)).rows.map(({ id }) => id);
    expect(deleted).toContain(gone.user.id);
    const live = rows.filter(({ envelope }) => !deleted.includes(envelope.payload.userId));
    // Exactly what each account's UserRegistered said, at the very time it happened.
    expect(items).toEqual(
      live.map(({ envelope }) => ({
        userId: envelope.payload.userId,
        username: envelope.payload.username,
        email: envelope.payload.email,
        role: envelope.payload.role,
        registeredAt: envelope.occurredAt,
      })),
    );
    expect(items.map((item) => item.userId)).toEqual(expect.arrayContaining(kept.map(({ user }) => user.id)));
    expect(items.map((item) => item.userId)).not.toContain(gone.user.id);
  });
});
