import {
  BillingRpc,
  type ConfirmPaymentRequest,
  type CreatePaymentIntentRequest,
  type CreditHistoryQuery,
  confirmPaymentRoute,
  createPaymentIntentRoute,
  creditHistoryQuerySchema,
  creditHistoryRoute,
  creditPackagesRoute,
  localPaymentConfirmRoute,
  localPaymentConfirmRequestSchema,
  paymentConfigRoute,
} from '@likeness/contracts';
import { RpcClient } from '@likeness/nest-kit';
import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { ZodPipe } from '../http/zod-params.pipe.js';

@Controller()
export class BillingController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(creditPackagesRoute.path)
  packages() {
    return this.rpc.call(BillingRpc.listPackages, {});
  }

  @Get(paymentConfigRoute.path)
  paymentConfig() {
    return this.rpc.call(BillingRpc.getPaymentConfig, {});
  }

  @Post(createPaymentIntentRoute.path)
  @HttpCode(200)
  @UseGuards(SessionGuard)
  createPaymentIntent(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(createPaymentIntentRoute.body)) body: CreatePaymentIntentRequest,
  ) {
    return this.rpc.call(BillingRpc.createPaymentIntent, { ...body, userId: user.id });
  }

  @Post(confirmPaymentRoute.path)
  @HttpCode(200)
  @UseGuards(SessionGuard)
  confirmPayment(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(confirmPaymentRoute.body)) body: ConfirmPaymentRequest,
  ) {
    return this.rpc.call(BillingRpc.confirmPayment, { ...body, userId: user.id });
  }

  @Post(localPaymentConfirmRoute.path)
  @HttpCode(200)
  @UseGuards(SessionGuard)
  confirmLocalPayment(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(localPaymentConfirmRoute.body)) body: z.output<typeof localPaymentConfirmRequestSchema>,
  ) {
    return this.rpc.call(BillingRpc.confirmLocalPayment, { ...body, userId: user.id });
  }

  @Get(creditHistoryRoute.path)
  @UseGuards(SessionGuard)
  creditHistory(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodPipe(creditHistoryQuerySchema)) query: CreditHistoryQuery,
  ) {
    return this.rpc.call(BillingRpc.getCreditHistory, { ...query, userId: user.id });
  }
}
