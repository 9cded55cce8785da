import { AuthRpc } from '@likeness/contracts';
import { DomainError, RpcClient, RpcRequestInvalidError } from '@likeness/nest-kit';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessTokens, type AuthenticatedUser } from './access-tokens.js';
import { SessionRevocationList } from './session-revocation-list.js';
import { SessionCookies } from './session-cookies.js';

export const UNAUTHENTICATED = 'Please log in to continue.';

/**
 * Lets a request through with a valid access token of a session not revoked. When the token is
 * missing, expired or revoked but a refresh token is present, it rotates the session first, so a
 * user stays signed in as long as the refresh token lives; a refresh token that is not valid
 * (unknown, revoked, replayed, or not even a token's shape) ends the session: 401, cookies cleared.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: SessionCookies,
    private readonly revocations: SessionRevocationList,
    private readonly tokens: AccessTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // A replica just started learns the live revocations first (bounded: see SessionRevocationList).
    await this.revocations.loaded;
    if (this.authenticate(context)) return true;
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
      // A cookie no refresh token could be (too long, control characters): no session either.
      if (error instanceof RpcRequestInvalidError) {
        this.cookies.clear(request, reply);
        throw new DomainError('AUTH.UNAUTHENTICATED', UNAUTHENTICATED);
      }
      throw error;
    }
    if (this.authenticate(context)) return true;
    throw new DomainError('AUTH.UNAUTHENTICATED', UNAUTHENTICATED);
  }

  /** Whether the access cookie names a user, who is then the request's `user` (see CurrentUser). */
  private authenticate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const user = this.tokens.userOf(request);
    if (user) request.user = user;
    return user !== undefined;
  }
}
