import {
  AuthRpc,
  PASSWORD_RESET_REQUESTED_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  type Session,
} from '@likeness/contracts';
import { type CaughtMail, linkIn, readDevMailbox, waitFor } from '@likeness/testing';
import jwt from 'jsonwebtoken';
import { type AuthUnderTest, PUBLIC_URL, startAuth } from './auth-harness.js';

const PASSWORD = 'first-password';

/** Password reset and change against real PostgreSQL and NATS, mail through the dev mailbox. */
describe('passwords', () => {
  let auth: AuthUnderTest;
  let client: AuthUnderTest['client'];
  let db: AuthUnderTest['db'];
  let dataDir: string;

  beforeAll(async () => {
    auth = await startAuth('passwords', { PASSWORD_RESET_LIMIT_PER_ADDRESS: '3' });
    ({ client, db } = auth);
    dataDir = auth.env.env['DATA_DIR']!;
  });

  afterAll(async () => {
    await auth?.close();
  });

  const register = (username: string) => auth.register(username, PASSWORD);
  const login = (username: string, password: string) => client.rpc.call(AuthRpc.login, { username, password });
  const sessionIdOf = (session: Session) => (jwt.decode(session.accessToken) as { sid: string }).sid;
  const resetWith = (token: string, password: string) =>
    client.rpc.call(AuthRpc.resetPassword, { token, password, confirmPassword: password });

  /** The mails to `to` whose subject matches, once there are `count` of them. */
  const mailsTo = (to: string, subject: RegExp, count = 1) =>
    waitFor(
      async () => {
        const mails = (await readDevMailbox(dataDir)).filter(
          (mail) => mail.to.includes(to) && subject.test(mail.subject),
        );
        return mails.length >= count ? mails : undefined;
      },
      { what: `${count} mail(s) "${subject.source}" to ${to}`, timeoutMs: 15_000 },
    );

  const tokenOf = (mail: CaughtMail) =>
    new URL(linkIn(mail, `${PUBLIC_URL}/reset-password?token=`)!).searchParams.get('token')!;

  async function requestLink(username: string, count = 1): Promise<string> {
    await expect(client.rpc.call(AuthRpc.requestPasswordReset, { email: `${username}@example.com` })).resolves.toEqual({
      message: PASSWORD_RESET_REQUESTED_MESSAGE,
    });
    const mails = await mailsTo(`${username}@example.com`, /^Reset your Likeness password$/, count);
    return tokenOf(mails[count - 1]!);
  }

  describe('reset', () => {
    it('should answer an unknown address as a known one, and mail a link only to the known one', async () => {
      await register('rosalind');
      const known = await client.rpc.call(AuthRpc.requestPasswordReset, { email: ' Rosalind@Example.com ' });
      const unknown = await client.rpc.call(AuthRpc.requestPasswordReset, { email: 'nobody@example.com' });
      expect(unknown).toEqual(known);
      expect(known).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });

      const [mail] = await mailsTo('rosalind@example.com', /^Reset your Likeness password$/);
      await auth.settled();
      expect((await readDevMailbox(dataDir)).filter((sent) => sent.to.includes('nobody@example.com'))).toEqual([]);
      expect(mail!.text).toContain('Hi rosalind');
      expect(mail!.html).toContain(`href="${linkIn(mail!, PUBLIC_URL)}"`);
      // 32 random bytes, and only their hash is stored.
      const token = tokenOf(mail!);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const { rows } = await db.query<{ token_hash: string; expires_in: number }>(
        `SELECT token_hash, extract(epoch FROM expires_at - now())::int AS expires_in
         FROM auth.password_reset_tokens t JOIN auth.users u ON u.id = t.user_id WHERE u.username = 'rosalind'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).not.toContain(token);
      expect(rows[0]!.expires_in).toBeGreaterThan(58 * 60);
      expect(rows[0]!.expires_in).toBeLessThanOrEqual(60 * 60);
    });

    it('should set the new password once, end every session and kill the other links', async () => {
      const first = await register('marie');
      const second = await login('marie', PASSWORD);
      const older = await requestLink('marie');
      const token = await requestLink('marie', 2);

      const result = await resetWith(token, 'new-password');

      expect(result.message).toMatch(/reset/);
      expect(result.revocations.map((revocation) => revocation.sessionId).sort()).toEqual(
        [sessionIdOf(first), sessionIdOf(second)].sort(),
      );
      for (const session of [first, second]) {
        await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: session.refreshToken })).rejects.toMatchObject({
          code: 'AUTH.SESSION_EXPIRED',
        });
      }
      await expect(login('marie', PASSWORD)).rejects.toMatchObject({ code: 'AUTH.INVALID_CREDENTIALS' });
      await expect(login('marie', 'new-password')).resolves.toMatchObject({ user: { username: 'marie' } });
      // Replayed, and the link mailed before it.
      for (const used of [token, older]) {
        await expect(resetWith(used, 'third-password')).rejects.toMatchObject({
          code: 'AUTH.RESET_TOKEN_INVALID',
          status: 400,
          message: RESET_TOKEN_INVALID_MESSAGE,
        });
      }
      await mailsTo('marie@example.com', /^Your Likeness password was changed$/);
    });

    it('should refuse an expired token, a made-up one and a mismatched confirmation', async () => {
      await register('lise');
      const token = await requestLink('lise');
      await db.query(
        `UPDATE auth.password_reset_tokens SET expires_at = now() - interval '1 second'
         WHERE user_id = (SELECT id FROM auth.users WHERE username = 'lise')`,
      );
      for (const candidate of [token, 'A'.repeat(43)]) {
        await expect(resetWith(candidate, 'new-password')).rejects.toMatchObject({ code: 'AUTH.RESET_TOKEN_INVALID' });
      }
      await expect(
        client.rpc.call(AuthRpc.resetPassword, { token, password: 'new-password', confirmPassword: 'other-password' }),
      ).rejects.toMatchObject({ code: 'COMMON.VALIDATION_FAILED' });
      await expect(login('lise', PASSWORD)).resolves.toMatchObject({ user: { username: 'lise' } });
    });

    it('should limit requests per address, known or not, alike', async () => {
      await register('ada');
      for (const email of ['ada@example.com', 'nobody-else@example.com']) {
        for (let request = 0; request < 3; request += 1) {
          await client.rpc.call(AuthRpc.requestPasswordReset, { email });
        }
        await expect(client.rpc.call(AuthRpc.requestPasswordReset, { email })).rejects.toMatchObject({
          code: 'COMMON.RATE_LIMITED',
          status: 429,
        });
      }
    });
  });

  describe('change', () => {
    it('should refuse a wrong current password on its field and change nothing', async () => {
      const session = await register('emmy');
      const failure = await client.rpc
        .call(AuthRpc.changePassword, {
          userId: session.user.id,
          sessionId: sessionIdOf(session),
          currentPassword: 'not-the-password',
          newPassword: 'new-password',
          confirmPassword: 'new-password',
        })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: 'AUTH.WRONG_PASSWORD',
        status: 403,
        issues: [{ path: 'currentPassword', message: 'Current password is incorrect' }],
      });
      await expect(login('emmy', PASSWORD)).resolves.toMatchObject({ user: { username: 'emmy' } });
    });

    it('should keep the session that changed it, end the others and the reset links, and mail a notice', async () => {
      const current = await register('sofia');
      const other = await login('sofia', PASSWORD);
      const link = await requestLink('sofia');

      const result = await client.rpc.call(AuthRpc.changePassword, {
        userId: current.user.id,
        sessionId: sessionIdOf(current),
        currentPassword: PASSWORD,
        newPassword: 'changed-password',
        confirmPassword: 'changed-password',
      });

      expect(result).toEqual({
        message: 'Password updated',
        revocations: [expect.objectContaining({ sessionId: sessionIdOf(other) })],
      });
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: other.refreshToken })).rejects.toMatchObject({
        code: 'AUTH.SESSION_EXPIRED',
      });
      await expect(client.rpc.call(AuthRpc.refresh, { refreshToken: current.refreshToken })).resolves.toMatchObject({
        user: { username: 'sofia' },
      });
      await expect(login('sofia', 'changed-password')).resolves.toMatchObject({ user: { username: 'sofia' } });
      await expect(resetWith(link, 'third-password')).rejects.toMatchObject({ code: 'AUTH.RESET_TOKEN_INVALID' });
      const [notice] = await mailsTo('sofia@example.com', /^Your Likeness password was changed$/);
      expect(notice!.text).toContain(`${PUBLIC_URL}/forgot-password`);
    });
  });
});
