import { AuthRpc, BillingRpc, type CurrentUser, type User } from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { UNAUTHENTICATED } from '../auth/session.guard.js';

/** Composes the user the SPA sees from what the services know. */
@Injectable()
export class CurrentUserService {
  private readonly logger = new Logger(CurrentUserService.name);

  constructor(private readonly rpc: RpcClient) {}

  async get(userId: number): Promise<CurrentUser> {
    try {
      const [user, balance] = await Promise.all([
        this.rpc.call(AuthRpc.getUser, { userId }),
        this.rpc.call(BillingRpc.getBalance, { userId }),
      ]);
      return this.toCurrentUser(user, balance.available);
    } catch (error) {
      // A valid token for an account that no longer exists is a signed-out caller.
      if (error instanceof DomainError && error.code === 'COMMON.NOT_FOUND') {
        throw new DomainError('AUTH.UNAUTHENTICATED', UNAUTHENTICATED);
      }
      throw error;
    }
  }

  /** `credits` is what the user can spend now: the balance less what running jobs hold. */
  toCurrentUser(user: User, credits: number): CurrentUser {
    return { id: user.id, username: user.username, email: user.email, role: user.role, credits };
  }

  /** A new account's credits: billing opens it now (UserRegistered would too, later; the grant happens once). */
  async openAccount(user: User): Promise<CurrentUser> {
    try {
      const balance = await this.rpc.call(BillingRpc.openAccount, { userId: user.id });
      return this.toCurrentUser(user, balance.available);
    } catch (error) {
      this.logger.warn(
        `Opening the account of user ${user.id} failed; UserRegistered will open it: ${(error as Error).message}`,
      );
      return this.toCurrentUser(user, 0);
    }
  }
}
