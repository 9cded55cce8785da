import {
  ACCOUNT_DELETED_MESSAGE,
  AuthEvents,
  AuthJobs,
  type AuthRpc,
  type RpcRequest,
  type RpcResponse,
  WRONG_PASSWORD_MESSAGE,
} from '@likeness/contracts';
import { DomainError, OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SessionsService } from '../sessions/sessions.service.js';
import { PasswordHasher } from './password-hasher.js';
import { tombstoneOf } from './user.entity.js';
import { UsersService } from './users.service.js';

export const ACCOUNT_GONE = 'That account no longer exists.';

/**
 * Deletes an account its owner confirmed with their password. In one transaction the user
 * becomes a tombstone (no lookup finds it, so no login; username and e-mail free again), every
 * session is revoked (its refresh tokens deleted) and every reset link dies, UserDeleted goes out through the outbox (each
 * service erases what it holds for the user on it), and a confirmation mail to the old address is
 * queued as a job, so a mail outage delays it without losing it. The revocations take effect
 * everywhere at once after the commit.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger(AccountDeletionService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly outbox: OutboxService,
  ) {}

  async delete(request: RpcRequest<typeof AuthRpc.deleteAccount>): Promise<RpcResponse<typeof AuthRpc.deleteAccount>> {
    const user = await this.users.findById(request.userId);
    if (!user) throw new DomainError('AUTH.UNAUTHENTICATED', ACCOUNT_GONE);
    if (!(await this.hasher.verify(user.passwordHash, request.password))) {
      throw new DomainError('AUTH.WRONG_PASSWORD', WRONG_PASSWORD_MESSAGE, [
        { path: 'password', message: WRONG_PASSWORD_MESSAGE },
      ]);
    }
    const revoked = await this.dataSource.transaction(async (manager) => {
      const tombstone = tombstoneOf(user.id);
      const [deleted] = await queryRows<{ deleted_at: Date }>(
        manager,
        `UPDATE auth.users SET deleted_at = now(), updated_at = now(), username = $2, email = $3, password_hash = $4
         WHERE id = $1 AND deleted_at IS NULL RETURNING deleted_at`,
        [user.id, tombstone.username, tombstone.email, tombstone.passwordHash],
      );
      // Deleted meanwhile by a concurrent request: that one did the rest.
      if (!deleted) throw new DomainError('AUTH.UNAUTHENTICATED', ACCOUNT_GONE);
      const sessions = await this.sessions.revokeSessionsIn(manager, user.id);
      // Revoked first (the revocation list needs their sessions), then gone with the reset links.
      await manager.query(`DELETE FROM auth.refresh_tokens WHERE user_id = $1`, [user.id]);
      await manager.query(`DELETE FROM auth.password_reset_tokens WHERE user_id = $1`, [user.id]);
      // The confirmation goes to the old address, named in the job: the account no longer has one.
      await this.outbox.enqueue(manager, AuthJobs.sendAccountMail, {
        kind: 'account-deleted',
        to: user.email,
        username: user.username,
      });
      await this.outbox.add(manager, AuthEvents.UserDeleted, {
        userId: user.id,
        deletedAt: deleted.deleted_at.toISOString(),
      });
      return sessions;
    });
    this.logger.log(`Deleted the account of user ${user.id}`);
    const revocations = await this.sessions.publishRevocations(revoked);
    return { message: ACCOUNT_DELETED_MESSAGE, revocations };
  }
}
