import { AdminRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { AdminQueries } from './admin-queries.service.js';

/** The admin area's reads; every one refuses a caller who is not the administrator (the kit checks the envelope). */
@Controller()
export class AdminController {
  constructor(private readonly queries: AdminQueries) {}

  @RpcHandler(AdminRpc.listUsers)
  listUsers(request: RpcRequest<typeof AdminRpc.listUsers>) {
    return this.queries.listUsers(request);
  }

  @RpcHandler(AdminRpc.getUser)
  getUser(request: RpcRequest<typeof AdminRpc.getUser>) {
    return this.queries.getUser(request.userId);
  }

  @RpcHandler(AdminRpc.listPayments)
  listPayments(request: RpcRequest<typeof AdminRpc.listPayments>) {
    return this.queries.listPayments(request);
  }

  @RpcHandler(AdminRpc.listGenerationJobs)
  listGenerationJobs(request: RpcRequest<typeof AdminRpc.listGenerationJobs>) {
    return this.queries.listGenerationJobs(request);
  }

  @RpcHandler(AdminRpc.getSummary)
  getSummary() {
    return this.queries.summary();
  }

  @RpcHandler(AdminRpc.getTimeseries)
  getTimeseries(request: RpcRequest<typeof AdminRpc.getTimeseries>) {
    return this.queries.timeseries(request.days);
  }
}
