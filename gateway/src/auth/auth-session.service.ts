import {
  AuthRpc,
  type CurrentUser,
  type LoginRequest,
  type LogoutResponse,
  type RegisterRequest,
  type Session,
} from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUserService } from '../users/current-user.service.js';
import { RateLimiter, accountKey } from './rate-limiter.js';
import { SessionCookies } from './session-cookies.js';

/** Turns the auth service's sessions into cookies, and back. */
@Injectable()
export class AuthSessionService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: SessionCookies,
    private readonly currentUser: CurrentUserService,
    private readonly limiter: RateLimiter,
  ) {}

  async register(body: RegisterRequest, request: FastifyRequest, reply: FastifyReply): Promise<CurrentUser> {
    const session = await this.rpc.call(AuthRpc.register, { ...body, ...clientOf(request) });
    this.cookies.set(request, reply, session);
    return this.currentUser.openAccount(session.user);
  }

  /** A wrong password counts against the account's limit; a success does not. */
  async login(body: LoginRequest, request: FastifyRequest, reply: FastifyReply): Promise<CurrentUser> {
    let session: Session;
    try {
      session = await this.rpc.call(AuthRpc.login, { ...body, ...clientOf(request) });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'AUTH.INVALID_CREDENTIALS') {
        await this.limiter.record(accountKey(body.username));
      }
      throw error;
    }
    this.cookies.set(request, reply, session);
    return this.currentUser.get(session.user.id);
  }

  /** Always signs the browser out; revokes the refresh token's whole session when there is one. */
  async logout(request: FastifyRequest, reply: FastifyReply): Promise<LogoutResponse> {
    const refreshToken = this.cookies.refreshToken(request);
    this.cookies.clear(request, reply);
    if (refreshToken) await this.rpc.call(AuthRpc.logout, { refreshToken });
    return { success: true };
  }
}

function clientOf(request: FastifyRequest): { ip: string; userAgent?: string } {
  const userAgent = request.headers['user-agent']?.slice(0, 512);
  return { ip: request.ip, ...(userAgent ? { userAgent } : {}) };
}
