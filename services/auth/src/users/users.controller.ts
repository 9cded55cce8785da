import { AuthRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { AccountDeletionService } from './account-deletion.service.js';
import { UsersService } from './users.service.js';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly deletions: AccountDeletionService,
  ) {}

  @RpcHandler(AuthRpc.getUser)
  async get(request: RpcRequest<typeof AuthRpc.getUser>) {
    return this.users.toView(await this.users.getById(request.userId));
  }

  @RpcHandler(AuthRpc.deleteAccount)
  deleteAccount(request: RpcRequest<typeof AuthRpc.deleteAccount>) {
    return this.deletions.delete(request);
  }
}
