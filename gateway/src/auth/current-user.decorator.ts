import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './access-tokens.js';

/** The signed-in user of a route guarded by SessionGuard. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser =>
    (context.switchToHttp().getRequest<FastifyRequest>() as FastifyRequest & { user: AuthenticatedUser }).user,
);
