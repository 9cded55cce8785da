import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './access-tokens.js';
import { type GatewayRateRule, RateLimiter } from './rate-limiter.js';

const USER_RATE_LIMIT = Symbol('USER_RATE_LIMIT');

/** Counts a request against its signed-in user's bucket; runs after SessionGuard, which finds the user. */
@Injectable()
export class UserRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<GatewayRateRule>(USER_RATE_LIMIT, context.getHandler());
    const { user } = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    if (!user) throw new Error(`@UserRateLimit('${rule}') needs SessionGuard before it`);
    await this.limiter.consume(rule, `user:${user.id}`);
    return true;
  }
}

/**
 * Limits a route per signed-in user, whatever address they call from, with one of the gateway's
 * rules (`gatewayRateRules`): past it, 429 with Retry-After. Put SessionGuard on the controller or
 * before this decorator.
 */
export const UserRateLimit = (rule: GatewayRateRule) =>
  applyDecorators(SetMetadata(USER_RATE_LIMIT, rule), UseGuards(UserRateLimitGuard));
