import {
  AuthJobs,
  PASSWORD_CHANGED_MESSAGE,
  type RpcRequest,
  type AuthRpc,
  type RpcResponse,
  WRONG_CURRENT_PASSWORD_MESSAGE,
} from '@likeness/contracts';
import { DomainError, OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionsService } from '../sessions/sessions.service.js';
import { PasswordHasher } from '../users/password-hasher.js';
import { UsersService } from '../users/users.service.js';

export const ACCOUNT_GONE = 'Please log in to continue.';

/** A user's own password change, and what every change of a password brings with it. */
@Injectable()
export class PasswordsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Checks the current password, sets the new one, ends every other session of the user (the
   * one that asked stays signed in) and mails a notice.
   */
  async change(
    request: RpcRequest<typeof AuthRpc.changePassword | typeof AuthRpc.changeAdminPassword>,
  ): Promise<RpcResponse<typeof AuthRpc.changePassword>> {
    const user = await this.users.findById(request.userId);
    if (!user) throw new DomainError('AUTH.UNAUTHENTICATED', ACCOUNT_GONE);
    if (!(await this.hasher.verify(user.passwordHash, request.currentPassword))) throw wrongCurrentPassword();
    const passwordHash = await this.hasher.hash(request.newPassword);
    const revoked = await this.dataSource.transaction(async (manager) => {
      // Only over the password just checked: a change that raced this one wins, and this one is refused.
      if (!(await this.replace(manager, user.id, passwordHash, user.passwordHash))) throw wrongCurrentPassword();
      return this.sessions.revokeSessionsIn(manager, user.id, { except: request.sessionId });
    });
    return { message: PASSWORD_CHANGED_MESSAGE, revocations: await this.sessions.publishRevocations(revoked) };
  }

  /**
   * Sets a new password hash inside the caller's transaction (only over `expectedHash` when
   * given): every outstanding reset link of the user dies and a "your password was changed" mail
   * is queued. The caller ends the sessions. False when the password was not the expected one.
   */
  async replace(manager: EntityManager, userId: number, passwordHash: string, expectedHash?: string): Promise<boolean> {
    const updated = await queryRows<{ id: number }>(
      manager,
      `UPDATE auth.users SET password_hash = $2, updated_at = now()
       WHERE id = $1 AND ($3::text IS NULL OR password_hash = $3) RETURNING id`,
      [userId, passwordHash, expectedHash ?? null],
    );
    if (updated.length === 0) return false;
    await manager.query(
      `UPDATE auth.password_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    await this.outbox.enqueue(manager, AuthJobs.sendAccountMail, { kind: 'password-changed', userId });
    return true;
  }
}

function wrongCurrentPassword(): DomainError {
  return new DomainError('AUTH.WRONG_PASSWORD', WRONG_CURRENT_PASSWORD_MESSAGE, [
    { path: 'currentPassword', message: WRONG_CURRENT_PASSWORD_MESSAGE },
  ]);
}
