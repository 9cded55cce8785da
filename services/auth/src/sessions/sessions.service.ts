import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AccessClaims, LoginRequest, RegisterRequest, Session } from '@likeness/contracts';
import { APP_CONFIG, DomainError } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import jwt from 'jsonwebtoken';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import type { AuthConfig } from '../auth.config.js';
import { PasswordHasher } from '../users/password-hasher.js';
import type { User } from '../users/user.entity.js';
import { UsersService } from '../users/users.service.js';
import { RefreshToken } from './refresh-token.entity.js';

export const INVALID_CREDENTIALS = 'Invalid username or password.';
export const SESSION_EXPIRED = 'Your session has expired. Please log in again.';
/** Requests that raced with a rotation may still use the old token this long. */
const ROTATION_GRACE_MS = 30_000;
export const JWT_ISSUER = 'likeness';
export const JWT_AUDIENCE = 'likeness';

@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
  ) {}

  async register(request: RegisterRequest): Promise<Session> {
    const user = await this.users.register(request);
    return this.dataSource.transaction((manager) => this.issue(manager, user, randomUUID()));
  }

  /** Never says which of the two was wrong. */
  async login(request: LoginRequest): Promise<Session> {
    const user = await this.users.findByLogin(request.username);
    const valid = await this.hasher.verify(user?.passwordHash, request.password);
    if (!user || !valid) throw new DomainError('AUTH.INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    return this.dataSource.transaction((manager) => this.issue(manager, user, randomUUID()));
  }

  /** Exchanges a refresh token for a new pair; a reused one revokes its family. */
  async refresh(refreshToken: string): Promise<Session> {
    // The revocation of a replayed family must commit, so the refusal happens outside the transaction.
    const outcome = await this.dataSource.transaction(async (manager): Promise<Session | 'expired'> => {
      const tokens = manager.getRepository(RefreshToken);
      const current = await tokens.findOne({
        where: { tokenHash: hashToken(refreshToken) },
        lock: { mode: 'pessimistic_write' },
      });
      const now = Date.now();
      if (!current || current.revokedAt || current.expiresAt.getTime() <= now) return 'expired';
      if (current.rotatedAt && now - current.rotatedAt.getTime() > ROTATION_GRACE_MS) {
        await tokens.update({ familyId: current.familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
        this.logger.warn(`Refresh token reused after rotation; revoked session family of user ${current.userId}`);
        return 'expired';
      }
      const user = await this.users.findById(current.userId);
      if (!user) return 'expired';
      if (!current.rotatedAt) await tokens.update(current.id, { rotatedAt: new Date() });
      return this.issue(manager, user, current.familyId);
    });
    if (outcome === 'expired') throw new DomainError('AUTH.SESSION_EXPIRED', SESSION_EXPIRED);
    return outcome;
  }

  async logout(refreshToken: string): Promise<boolean> {
    const tokens = this.dataSource.getRepository(RefreshToken);
    const current = await tokens.findOneBy({ tokenHash: hashToken(refreshToken) });
    if (!current) return false;
    await tokens.update({ familyId: current.familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return true;
  }

  private async issue(manager: EntityManager, user: User, familyId: string): Promise<Session> {
    const now = Date.now();
    const accessTokenExpiresAt = new Date(now + this.config.ACCESS_TOKEN_TTL_SECONDS * 1000);
    const refreshTokenExpiresAt = new Date(now + this.config.REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000);
    const claims: AccessClaims = { sub: String(user.id), username: user.username, role: user.role };
    const accessToken = jwt.sign(claims, this.config.JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
    });
    const refreshToken = randomBytes(32).toString('base64url');
    await manager.insert(RefreshToken, {
      userId: user.id,
      tokenHash: hashToken(refreshToken),
      familyId,
      expiresAt: refreshTokenExpiresAt,
    });
    return {
      user: this.users.toView(user),
      accessToken,
      accessTokenExpiresAt: accessTokenExpiresAt.toISOString(),
      refreshToken,
      refreshTokenExpiresAt: refreshTokenExpiresAt.toISOString(),
    };
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
