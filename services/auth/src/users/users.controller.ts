import { AuthRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { UsersService } from './users.service.js';

@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @RpcHandler(AuthRpc.getUser)
  async get(request: RpcRequest<typeof AuthRpc.getUser>) {
    return this.users.toView(await this.users.getById(request.userId));
  }
}
