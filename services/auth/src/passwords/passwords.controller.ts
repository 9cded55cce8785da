import { AuthRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { PasswordResetsService } from './password-resets.service.js';
import { PasswordsService } from './passwords.service.js';

@Controller()
export class PasswordsController {
  constructor(
    private readonly resets: PasswordResetsService,
    private readonly passwords: PasswordsService,
  ) {}

  @RpcHandler(AuthRpc.requestPasswordReset)
  requestReset(request: RpcRequest<typeof AuthRpc.requestPasswordReset>) {
    return this.resets.request(request);
  }

  @RpcHandler(AuthRpc.resetPassword)
  reset(request: RpcRequest<typeof AuthRpc.resetPassword>) {
    return this.resets.reset(request);
  }

  @RpcHandler(AuthRpc.changePassword)
  change(request: RpcRequest<typeof AuthRpc.changePassword>) {
    return this.passwords.change(request);
  }
}
