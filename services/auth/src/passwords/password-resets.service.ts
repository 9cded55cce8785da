import { createHash, randomBytes } from 'node:crypto';
import {
  AuthJobs,
  type AuthRpc,
  PASSWORD_RESET_MESSAGE,
  PASSWORD_RESET_REQUESTED_MESSAGE,
  PASSWORD_RESET_TOKEN_TTL_MINUTES,
  RESET_TOKEN_INVALID_MESSAGE,
  type RpcRequest,
  type RpcResponse,
} from '@likeness/contracts';
import { MailTemplates, appLink } from '@likeness/mail';
import { DomainError, OutboxService, Periodic, queryRows } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MailSender } from '../mail/mail-sender.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { PasswordHasher } from '../users/password-hasher.js';
import { UsersService, normalisedLogin } from '../users/users.service.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import { PasswordsService } from './passwords.service.js';
import { ResetLimits } from './reset-limits.js';

const TOKEN_TTL_MS = PASSWORD_RESET_TOKEN_TTL_MINUTES * 60_000;
/** Used and expired tokens are kept a day (for support questions), then swept. */
const KEEP_DEAD_TOKENS = '1 day';

/**
 * Password reset by e-mail. A request only queues a mail job, whether or not the address has an
 * account: both answer the same message after the same work (a rate-limit check and one insert),
 * so neither the answer nor its time says which addresses have accounts. The job looks the
 * address up and, for an account, makes the token (32 random bytes; only its SHA-256 is stored)
 * and mails the link. A token works once, for an hour; using it, or any change of the password,
 * kills every other outstanding token of the user, and a reset ends every session.
 */
@Injectable()
export class PasswordResetsService {
  private readonly logger = new Logger(PasswordResetsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordsService,
    private readonly limits: ResetLimits,
    private readonly outbox: OutboxService,
    private readonly sender: MailSender,
  ) {}

  async request({ email }: RpcRequest<typeof AuthRpc.requestPasswordReset>) {
    const address = normalisedLogin(email);
    await this.limits.take(address);
    await this.dataSource.transaction((manager) =>
      this.outbox.enqueue(manager, AuthJobs.sendPasswordResetMail, { email: address }),
    );
    return { message: PASSWORD_RESET_REQUESTED_MESSAGE };
  }

  /**
   * The job: mails a fresh link if the address has an account. `requestId` (the job's id) names
   * the request's token: a retry after a failed send replaces it, so only the link last sent
   * works, and nothing is sent once the request's token was used or killed.
   */
  async mailLink(email: string, requestId: string): Promise<void> {
    const user = await this.users.findByLogin(email);
    if (!user) {
      this.logger.log(`Password reset request ${requestId}: no account has that address, nothing sent`);
      return;
    }
    const token = randomBytes(32).toString('base64url');
    const issued = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `INSERT INTO auth.password_reset_tokens (user_id, token_hash, request_id, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (request_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at
       WHERE password_reset_tokens.used_at IS NULL
       RETURNING id`,
      [user.id, hashToken(token), requestId, new Date(Date.now() + TOKEN_TTL_MS)],
    );
    if (issued.length === 0) {
      this.logger.log(`Password reset request ${requestId} was used or superseded meanwhile; nothing sent`);
      return;
    }
    await this.sender.send({
      to: user.email,
      template: MailTemplates.passwordReset,
      data: {
        username: user.username,
        resetUrl: appLink(this.sender.context, '/reset-password', { token }),
        expiresInMinutes: PASSWORD_RESET_TOKEN_TTL_MINUTES,
      },
      id: `password-reset:${requestId}`,
    });
  }

  /** Sets the new password with a live token, once; every session of the user ends. */
  async reset(request: RpcRequest<typeof AuthRpc.resetPassword>): Promise<RpcResponse<typeof AuthRpc.resetPassword>> {
    const tokens = this.dataSource.getRepository(PasswordResetToken);
    const found = await tokens.findOneBy({ tokenHash: hashToken(request.token) });
    // Checked before hashing, so a made-up token costs no argon2.
    if (!found || found.usedAt || found.expiresAt.getTime() <= Date.now()) throw invalidToken();
    const user = await this.users.findById(found.userId);
    if (!user) throw invalidToken();
    const passwordHash = await this.hasher.hash(request.password);
    const outcome = await this.dataSource.transaction(async (manager) => {
      // Claims the token: of two uses racing, one wins.
      const claimed = await queryRows<{ id: string }>(
        manager,
        `UPDATE auth.password_reset_tokens SET used_at = now()
         WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING id`,
        [found.id],
      );
      if (claimed.length === 0) return undefined;
      await this.passwords.replace(manager, user.id, passwordHash);
      return { revoked: await this.sessions.revokeSessionsIn(manager, user.id) };
    });
    if (!outcome) throw invalidToken();
    this.logger.log(`User ${user.id} reset their password; every session ended`);
    return { message: PASSWORD_RESET_MESSAGE, revocations: await this.sessions.publishRevocations(outcome.revoked) };
  }

  /** Forgets tokens a day after they died. */
  @Periodic({ everyMs: 60 * 60_000, lock: 'auth.password-reset-tokens' })
  async sweep(): Promise<number> {
    const deleted = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `DELETE FROM auth.password_reset_tokens
       WHERE coalesce(used_at, expires_at) < now() - $1::interval RETURNING id`,
      [KEEP_DEAD_TOKENS],
    );
    return deleted.length;
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function invalidToken(): DomainError {
  return new DomainError('AUTH.RESET_TOKEN_INVALID', RESET_TOKEN_INVALID_MESSAGE, [
    { path: 'token', message: RESET_TOKEN_INVALID_MESSAGE },
  ]);
}
