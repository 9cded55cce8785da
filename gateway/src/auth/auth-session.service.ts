import {
  AuthRpc,
  type CurrentUser,
  type DeleteAccountRequest,
  type LoginRequest,
  type LogoutResponse,
  type MessageResponse,
  type RegisterRequest,
  type Session,
  deviceTokenSchema,
} from '@likeness/contracts';
import { RpcClient, RpcRequestInvalidError } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUserService } from '../users/current-user.service.js';
import type { AuthenticatedUser } from './access-tokens.js';
import { SessionRevocationList } from './session-revocation-list.js';
import { SessionCookies } from './session-cookies.js';

/** Turns the auth service's sessions into cookies, and back. */
@Injectable()
export class AuthSessionService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: SessionCookies,
    private readonly currentUser: CurrentUserService,
    private readonly revocations: SessionRevocationList,
  ) {}

  async register(body: RegisterRequest, request: FastifyRequest, reply: FastifyReply): Promise<CurrentUser> {
    const session = await this.rpc.call(AuthRpc.register, { ...body, ...clientOf(request) });
    this.cookies.set(request, reply, session);
    return this.currentUser.openAccount(session.user);
  }

  /** Auth counts failed attempts per account (and refuses past its limits); the device cookie goes along. */
  async login(body: LoginRequest, request: FastifyRequest, reply: FastifyReply): Promise<CurrentUser> {
    const deviceToken = this.cookies.deviceToken(request);
    const session: Session = await this.rpc.call(AuthRpc.login, {
      ...body,
      ...clientOf(request),
      // Only a token's shape is passed on; auth checks its signature.
      ...(deviceTokenSchema.safeParse(deviceToken).success ? { deviceToken } : {}),
    });
    this.cookies.set(request, reply, session);
    return this.currentUser.get(session.user.id);
  }

  /**
   * Always signs the browser out; revokes the refresh token's whole session when there is one,
   * which this replica refuses at once (the others as soon as auth's revocation reaches them).
   */
  async logout(request: FastifyRequest, reply: FastifyReply): Promise<LogoutResponse> {
    const refreshToken = this.cookies.refreshToken(request);
    this.cookies.clear(request, reply);
    if (!refreshToken) return { success: true };
    try {
      const { revocation } = await this.rpc.call(AuthRpc.logout, { refreshToken });
      if (revocation) this.revocations.add(revocation);
    } catch (error) {
      // A cookie no refresh token could be: there is no session to end.
      if (!(error instanceof RpcRequestInvalidError)) throw error;
    }
    return { success: true };
  }

  /**
   * Deletes the signed-in user's account (auth checks the password): every one of its sessions is
   * refused at once here (the other replicas as soon as auth's revocations reach them), and this
   * browser is signed out.
   */
  async deleteAccount(
    user: AuthenticatedUser,
    body: DeleteAccountRequest,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<MessageResponse> {
    const { message, revocations } = await this.rpc.call(AuthRpc.deleteAccount, {
      ...body,
      userId: user.id,
      ...clientOf(request),
    });
    for (const revocation of revocations) this.revocations.add(revocation);
    this.cookies.clear(request, reply);
    return { message };
  }
}

function clientOf(request: FastifyRequest): { ip: string; userAgent?: string } {
  const userAgent = request.headers['user-agent']?.slice(0, 512);
  return { ip: request.ip, ...(userAgent ? { userAgent } : {}) };
}
