import {
  type AdminChangePasswordRequest,
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
import type { AuthenticatedUser } from './access-tokens.js';
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

  reset(body: ResetPasswordRequest, request: FastifyRequest): Promise<MessageResponse> {
    return this.refusing(this.rpc.call(AuthRpc.resetPassword, { ...body, ip: request.ip }));
  }

  change(user: AuthenticatedUser, body: ChangePasswordRequest, request: FastifyRequest): Promise<MessageResponse> {
    return this.refusing(this.rpc.call(AuthRpc.changePassword, { ...body, ...sessionOf(user, request) }));
  }

  /** The administrator's own password, under the admin rules; auth checks the role the envelope names. */
  changeAdmin(
    user: AuthenticatedUser,
    body: AdminChangePasswordRequest,
    request: FastifyRequest,
  ): Promise<MessageResponse> {
    return this.refusing(
      this.rpc.call(
        AuthRpc.changeAdminPassword,
        { ...body, ...sessionOf(user, request) },
        { caller: { userId: user.id, role: user.role } },
      ),
    );
  }

  /** Refuses at once the sessions a change ended, and answers with its message only. */
  private async refusing(
    reply: Promise<{ message: string; revocations: readonly SessionRevocation[] }>,
  ): Promise<MessageResponse> {
    const { message, revocations } = await reply;
    for (const revocation of revocations) this.revocations.add(revocation);
    return { message };
  }
}

/** Who changes their password, from which session (the one that stays signed in) and address. */
function sessionOf(user: AuthenticatedUser, request: FastifyRequest) {
  return { userId: user.id, sessionId: user.sessionId, ip: request.ip };
}
