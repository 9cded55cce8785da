import { ADMIN_ONLY_MESSAGE, AuthRpc, type RpcRequest } from '@likeness/contracts';
import { DomainError, RpcHandler, currentCaller } from '@likeness/nest-kit';
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

  /**
   * The same change under the admin rules (the schema checked them; the kit let only an admin
   * caller through), and only of the caller's own password.
   */
  @RpcHandler(AuthRpc.changeAdminPassword)
  changeAdmin(request: RpcRequest<typeof AuthRpc.changeAdminPassword>) {
    if (currentCaller()?.userId !== request.userId) throw new DomainError('AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE);
    return this.passwords.change(request);
  }
}
