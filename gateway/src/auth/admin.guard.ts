import { ADMIN_ONLY_MESSAGE } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './access-tokens.js';
import { SessionGuard } from './session.guard.js';

/**
 * Lets through only a signed-in administrator: a visitor gets 401 (as SessionGuard), a
 * signed-in user without the `admin` role 403. The services behind admin routes check the role
 * again from the RPC envelope (`RpcCallOptions.caller`).
 */
@Injectable()
export class AdminGuard extends SessionGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const user = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>().user;
    if (user?.role !== 'admin') throw new DomainError('AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE);
    return true;
  }
}
