import type { KeyObject } from 'node:crypto';
import { accessClaimsSchema, type Role } from '@likeness/contracts';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
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
 * Reads the access token from its cookie: HS256 with our key, our issuer and audience, not
 * expired, claims of our shape, and a session not revoked (logout, a replayed refresh token).
 * A plain synchronous check with jsonwebtoken, as passport-jwt made it, without passport's
 * per-request strategy objects and callbacks around it.
 */
@Injectable()
export class AccessTokens {
  private readonly key: KeyObject;

  constructor(
    @Inject(APP_CONFIG) config: GatewayConfig,
    private readonly revocations: SessionRevocationList,
  ) {
    this.key = accessTokenKey(config.JWT_SECRET);
  }

  /** The user the request's access token names, or undefined when it names nobody it may. */
  userOf(request: FastifyRequest): AuthenticatedUser | undefined {
    const token = request.cookies?.[ACCESS_COOKIE];
    if (!token) return undefined;
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key, ACCESS_TOKEN_VERIFY_OPTIONS);
    } catch {
      return undefined;
    }
    const claims = accessClaimsSchema.safeParse(payload);
    if (!claims.success || this.revocations.isRevoked(claims.data.sid)) return undefined;
    return {
      id: Number(claims.data.sub),
      username: claims.data.username,
      role: claims.data.role,
      sessionId: claims.data.sid,
    };
  }
}
