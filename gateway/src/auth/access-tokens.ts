import { accessClaimsSchema, type Role } from '@likeness/contracts';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { GatewayConfig } from '../gateway.config.js';
import { ACCESS_TOKEN_VERIFY_OPTIONS, accessTokenKey } from './access-token-key.js';
import { SessionRevocationList } from './session-revocation-list.js';
import { ACCESS_COOKIE } from './session-cookies.js';

/** Who is calling, as the access token says. */
export interface AuthenticatedUser {
  id: number;
  username: string;
  role: Role;
  /** The session the token belongs to (e.g. the one a password change keeps: `revokeSessions(id, { except })`). */
  sessionId: string;
}

/**
 * Verifies the access token from its cookie (HS256, our issuer and audience, not expired) and
 * refuses one whose session has been revoked (logout, a replayed refresh token), like an expired one.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: GatewayConfig,
    private readonly revocations: SessionRevocationList,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([
        (request: FastifyRequest) => request.cookies?.[ACCESS_COOKIE] ?? null,
      ]),
      // The typings name strings and Buffers; jsonwebtoken takes a KeyObject as it is.
      secretOrKey: accessTokenKey(config.JWT_SECRET) as unknown as Buffer,
      ...ACCESS_TOKEN_VERIFY_OPTIONS,
      ignoreExpiration: false,
    });
  }

  validate(payload: unknown): AuthenticatedUser | false {
    const claims = accessClaimsSchema.safeParse(payload);
    if (!claims.success || this.revocations.isRevoked(claims.data.sid)) return false;
    return {
      id: Number(claims.data.sub),
      username: claims.data.username,
      role: claims.data.role,
      sessionId: claims.data.sid,
    };
  }
}
