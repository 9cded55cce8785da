import { AuthRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';

@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @RpcHandler(AuthRpc.register)
  register(request: RpcRequest<typeof AuthRpc.register>) {
    return this.sessions.register(request);
  }

  @RpcHandler(AuthRpc.login)
  login(request: RpcRequest<typeof AuthRpc.login>) {
    return this.sessions.login(request);
  }

  @RpcHandler(AuthRpc.refresh)
  refresh(request: RpcRequest<typeof AuthRpc.refresh>) {
    return this.sessions.refresh(request.refreshToken);
  }

  @RpcHandler(AuthRpc.logout)
  logout(request: RpcRequest<typeof AuthRpc.logout>) {
    return this.sessions.logout(request.refreshToken);
  }
}
