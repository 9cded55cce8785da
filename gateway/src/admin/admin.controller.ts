import {
  type AdminChangePasswordRequest,
  type AdminGenerationJobsQuery,
  type AdminPaymentsQuery,
  AdminRpc,
  type AdminTimeseriesQuery,
  type AdminUsersQuery,
  type CreditAdjustmentRequest,
  adminChangePasswordRoute,
  adminCreditAdjustmentRoute,
  adminGenerationJobsQuerySchema,
  adminGenerationJobsRoute,
  adminPaymentsQuerySchema,
  adminPaymentsRoute,
  adminSummaryRoute,
  adminTimeseriesQuerySchema,
  adminTimeseriesRoute,
  adminUserRoute,
  adminUsersQuerySchema,
  adminUsersRoute,
} from '@likeness/contracts';
import { type RpcCaller, RpcClient } from '@likeness/nest-kit';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminGuard } from '../auth/admin.guard.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { PasswordsService } from '../auth/passwords.service.js';
import { UserRateLimit } from '../auth/user-rate-limit.guard.js';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { ZodPipe, nestPath } from '../http/zod-params.pipe.js';

/** The administrator, named in the RPC envelope: the answering service checks the role again. */
const callerOf = (user: AuthenticatedUser): { caller: RpcCaller } => ({
  caller: { userId: user.id, role: user.role },
});

/**
 * The admin API (/api/admin/...): a visitor gets 401, a signed-in user who is not the
 * administrator 403 with ADMIN_ONLY_MESSAGE, before anything is read. Reports come from the
 * reporting service's read models; credit adjustments from billing; the password from auth.
 */
@Controller()
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly passwords: PasswordsService,
  ) {}

  @Get(adminSummaryRoute.path)
  summary(@CurrentUser() user: AuthenticatedUser) {
    return this.rpc.call(AdminRpc.getSummary, {}, callerOf(user));
  }

  @Get(adminTimeseriesRoute.path)
  timeseries(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(adminTimeseriesQuerySchema)) query: AdminTimeseriesQuery,
  ) {
    return this.rpc.call(AdminRpc.getTimeseries, query, callerOf(user));
  }

  @Get(adminUsersRoute.path)
  users(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(adminUsersQuerySchema)) query: AdminUsersQuery) {
    return this.rpc.call(AdminRpc.listUsers, query, callerOf(user));
  }

  @Get(nestPath(adminUserRoute.path))
  user(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(adminUserRoute.params.shape.id)) userId: number,
  ) {
    return this.rpc.call(AdminRpc.getUser, { userId }, callerOf(user));
  }

  @Post(nestPath(adminCreditAdjustmentRoute.path))
  @HttpCode(200)
  adjustCredits(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', new ZodPipe(adminCreditAdjustmentRoute.params.shape.id)) userId: number,
    @Body(new ZodBodyPipe(adminCreditAdjustmentRoute.body)) body: CreditAdjustmentRequest,
  ) {
    return this.rpc.call(AdminRpc.adjustCredits, { ...body, userId }, callerOf(user));
  }

  @Get(adminPaymentsRoute.path)
  payments(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(adminPaymentsQuerySchema)) query: AdminPaymentsQuery,
  ) {
    return this.rpc.call(AdminRpc.listPayments, query, callerOf(user));
  }

  @Get(adminGenerationJobsRoute.path)
  generationJobs(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(adminGenerationJobsQuerySchema)) query: AdminGenerationJobsQuery,
  ) {
    return this.rpc.call(AdminRpc.listGenerationJobs, query, callerOf(user));
  }

  /** As POST /api/change-password (the same limit, the other sessions end), under the admin rules. */
  @Post(adminChangePasswordRoute.path)
  @HttpCode(200)
  @UserRateLimit('passwordChanges')
  changePassword(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(adminChangePasswordRoute.body)) body: AdminChangePasswordRequest,
    @Req() request: FastifyRequest,
  ) {
    return this.passwords.changeAdmin(user, body, request);
  }
}
