import { accessClaimsSchema, type Role } from '@likeness/contracts';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { GatewayConfig } from '../gateway.config.js';
import { ACCESS_COOKIE } from './session-cookies.js';

/** Who is calling, as the access token says. */
export interface AuthenticatedUser {
  id: number;
  username: string;
  role: Role;
}

/** Verifies the access token from its cookie (HS256, our issuer and audience, not expired). */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([
        (request: FastifyRequest) => request.cookies?.[ACCESS_COOKIE] ?? null,
      ]),
      secretOrKey: config.JWT_SECRET,
      algorithms: ['HS256'],
      issuer: 'likeness',
      audience: 'likeness',
      ignoreExpiration: false,
    });
  }

  validate(payload: unknown): AuthenticatedUser | false {
    const claims = accessClaimsSchema.safeParse(payload);
    if (!claims.success) return false;
    return { id: Number(claims.data.sub), username: claims.data.username, role: claims.data.role };
  }
}
