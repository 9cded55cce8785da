import { type LoginRequest, type RegisterRequest, loginRoute, logoutRoute, registerRoute } from '@likeness/contracts';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodBodyPipe } from '../http/zod-body.pipe.js';
import { AuthSessionService } from './auth-session.service.js';
import { RateLimited } from './rate-limiter.js';

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
}
