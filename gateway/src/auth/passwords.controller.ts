import {
  type ChangePasswordRequest,
  type RequestPasswordResetRequest,
  type ResetPasswordRequest,
  changePasswordRoute,
  requestPasswordResetRoute,
  resetPasswordRoute,
} from '@likeness/contracts';
import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { CurrentUser } from './current-user.decorator.js';
import type { AuthenticatedUser } from './access-tokens.js';
import { PasswordsService } from './passwords.service.js';
import { RateLimited } from './rate-limiter.js';
import { SessionGuard } from './session.guard.js';
import { UserRateLimit } from './user-rate-limit.guard.js';

@Controller()
export class PasswordsController {
  constructor(private readonly passwords: PasswordsService) {}

  @Post(requestPasswordResetRoute.path)
  @HttpCode(200)
  @RateLimited('passwordReset')
  requestReset(
    @Body(new ZodBodyPipe(requestPasswordResetRoute.body)) body: RequestPasswordResetRequest,
    @Req() request: FastifyRequest,
  ) {
    return this.passwords.requestReset(body, request);
  }

  @Post(resetPasswordRoute.path)
  @HttpCode(200)
  @RateLimited('passwordReset')
  reset(@Body(new ZodBodyPipe(resetPasswordRoute.body)) body: ResetPasswordRequest, @Req() request: FastifyRequest) {
    return this.passwords.reset(body, request);
  }

  @Post(changePasswordRoute.path)
  @HttpCode(200)
  @UserRateLimit('passwordChanges')
  // Below the limit: decorators apply bottom up, and the limit needs the user SessionGuard finds.
  @UseGuards(SessionGuard)
  change(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(changePasswordRoute.body)) body: ChangePasswordRequest,
    @Req() request: FastifyRequest,
  ) {
    return this.passwords.change(user, body, request);
  }
}
