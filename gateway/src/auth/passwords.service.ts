import {
  AuthRpc,
  type ChangePasswordRequest,
  type MessageResponse,
  type RequestPasswordResetRequest,
  type ResetPasswordRequest,
  type SessionRevocation,
} from '@likeness/contracts';
import { RpcClient } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './jwt.strategy.js';
import { SessionRevocationList } from './session-revocation-list.js';

/** Password reset and change: auth does the work; this replica refuses the sessions they end at once. */
@Injectable()
export class PasswordsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly revocations: SessionRevocationList,
  ) {}

  requestReset(body: RequestPasswordResetRequest, request: FastifyRequest): Promise<MessageResponse> {
    return this.rpc.call(AuthRpc.requestPasswordReset, { ...body, ip: request.ip });
  }

  async reset(body: ResetPasswordRequest, request: FastifyRequest): Promise<MessageResponse> {
    const { message, revocations } = await this.rpc.call(AuthRpc.resetPassword, { ...body, ip: request.ip });
    this.refuse(revocations);
    return { message };
  }

  async change(
    user: AuthenticatedUser,
    body: ChangePasswordRequest,
    request: FastifyRequest,
  ): Promise<MessageResponse> {
    const { message, revocations } = await this.rpc.call(AuthRpc.changePassword, {
      ...body,
      userId: user.id,
      sessionId: user.sessionId,
      ip: request.ip,
    });
    this.refuse(revocations);
    return { message };
  }

  private refuse(revocations: readonly SessionRevocation[]): void {
    for (const revocation of revocations) this.revocations.add(revocation);
  }
}
