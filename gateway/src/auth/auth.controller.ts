import {
  type DeleteAccountRequest,
  type LoginRequest,
  type RegisterRequest,
  deleteAccountRoute,
  loginRoute,
  logoutRoute,
  registerRoute,
} from '@likeness/contracts';
import { Body, Controller, Delete, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { AuthSessionService } from './auth-session.service.js';
import { CurrentUser } from './current-user.decorator.js';
import type { AuthenticatedUser } from './access-tokens.js';
import { RateLimited } from './rate-limiter.js';
import { SessionGuard } from './session.guard.js';
import { UserRateLimit } from './user-rate-limit.guard.js';

@Controller()
export class AuthController {
  constructor(private readonly sessions: AuthSessionService) {}

  @Post(registerRoute.path)
  @HttpCode(201)
  @RateLimited('register')
  register(
    @Body(new ZodBodyPipe(registerRoute.body)) body: RegisterRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.sessions.register(body, request, reply);
  }

  @Post(loginRoute.path)
  @HttpCode(200)
  @RateLimited('login')
  login(
    @Body(new ZodBodyPipe(loginRoute.body)) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.sessions.login(body, request, reply);
  }

  @Post(logoutRoute.path)
  @HttpCode(200)
  logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.sessions.logout(request, reply);
  }

  /**
   * Password-confirmed like a password change, so guesses through either share one per-user limit.
   * (Guards run in the order listed: the limit needs the user SessionGuard finds.)
   */
  @Delete(deleteAccountRoute.path)
  @HttpCode(200)
  @UserRateLimit('passwordChanges')
  @UseGuards(SessionGuard)
  deleteAccount(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodBodyPipe(deleteAccountRoute.body)) body: DeleteAccountRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.sessions.deleteAccount(user, body, request, reply);
  }
}
