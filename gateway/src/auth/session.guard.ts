import { AuthRpc } from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SessionCookies } from './session-cookies.js';

export const UNAUTHENTICATED = 'Please log in to continue.';

/**
 * Lets a request through with a valid access token. When the token is missing or expired but a
 * refresh token is present, it rotates the session first, so a user stays signed in as long
 * as the refresh token lives.
 */
@Injectable()
export class SessionGuard extends AuthGuard('jwt') {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: SessionCookies,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (await this.authenticate(context)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const refreshToken = this.cookies.refreshToken(request);
    if (!refreshToken) throw new DomainError('AUTH.UNAUTHENTICATED', UNAUTHENTICATED);
    try {
      const session = await this.rpc.call(AuthRpc.refresh, { refreshToken, ip: request.ip });
      this.cookies.set(request, reply, session);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'AUTH.SESSION_EXPIRED') {
        this.cookies.clear(request, reply);
        throw new DomainError('AUTH.UNAUTHENTICATED', error.message);
      }
      throw error;
    }
    if (await this.authenticate(context)) return true;
    throw new DomainError('AUTH.UNAUTHENTICATED', UNAUTHENTICATED);
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    try {
      return (await super.canActivate(context)) as boolean;
    } catch {
      return false;
    }
  }
}
