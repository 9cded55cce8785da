import { type KeyObject, createHash, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import type {
  AccessClaims,
  AuthRpc,
  LoginRequest,
  RegisterRequest,
  RpcResponse,
  Session,
  SessionRevocation,
} from '@likeness/contracts';
import { APP_CONFIG, DomainError } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import jwt from 'jsonwebtoken';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthConfig } from '../auth.config.js';
import { PasswordHasher } from '../users/password-hasher.js';
import type { User } from '../users/user.entity.js';
import { UsersService, normalisedLogin } from '../users/users.service.js';
import { DeviceTokens } from './device-tokens.js';
import { LoginLimits } from './login-limits.js';
import { RefreshToken } from './refresh-token.entity.js';
import { type RevokedSessions, SessionRevocations } from './session-revocations.js';
import { openSuccessor, sealSuccessor } from './successor-seal.js';

export const INVALID_CREDENTIALS = 'Invalid username or password.';
export const SESSION_EXPIRED = 'Your session has expired. Please log in again.';
export const JWT_ISSUER = 'likeness';
export const JWT_AUDIENCE = 'likeness';
/** Rotations within one grace window chain successors; a chain longer than this is not followed. */
const MAX_SUCCESSOR_LINKS = 20;

/** Which of a user's sessions (refresh-token families) to end. */
export interface SessionScope {
  /** Only this one (a logout, a replayed token). */
  only?: string;
  /** Every one but this (a password change keeps the session that made it). */
  except?: string;
}

type LoginCall = LoginRequest & { ip?: string | undefined; deviceToken?: string | undefined };

@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);
  /** Made once: given the secret as a string, jsonwebtoken makes a key object on every signature. */
  private readonly accessTokenKey: KeyObject;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly limits: LoginLimits,
    private readonly devices: DeviceTokens,
    private readonly revocations: SessionRevocations,
  ) {
    this.accessTokenKey = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  }

  async register(request: RegisterRequest): Promise<Session> {
    const user = await this.users.register(request);
    return this.dataSource.transaction((manager) => this.issue(manager, user, randomUUID()));
  }

  /**
   * Never says which of the two was wrong. The attempt is counted against the account (whichever
   * name it used) before the password is checked, and given back when the password was right.
   */
  async login(request: LoginCall): Promise<Session> {
    const user = await this.users.findByLogin(request.username);
    const reservation = await this.limits.reserve({
      // An unknown name is limited by its text, so known and unknown accounts answer alike.
      account: user ? `user:${user.id}` : `name:${normalisedLogin(request.username)}`,
      ip: request.ip,
      device: user ? this.devices.deviceOf(request.deviceToken, user.id) : undefined,
    });
    let valid: boolean;
    try {
      valid = await this.hasher.verify(user?.passwordHash, request.password);
    } catch (error) {
      // Refused before the check (the hasher is busy): it was no attempt.
      await reservation.release();
      throw error;
    }
    if (!user || !valid) throw new DomainError('AUTH.INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    await reservation.release();
    const session = await this.dataSource.transaction((manager) => this.issue(manager, user, randomUUID()));
    const device = this.devices.issue(user.id);
    return { ...session, deviceToken: device.token, deviceTokenExpiresAt: device.expiresAt.toISOString() };
  }

  /**
   * Exchanges a refresh token for a new pair. A rotated token sent again within
   * REFRESH_ROTATION_GRACE_SECONDS (requests that raced the rotation) gets the successor already
   * issued, so one live token remains; later, it is a replay: the whole session is revoked.
   */
  async refresh(refreshToken: string): Promise<Session> {
    // The revocation of a replayed family must commit, so the refusal happens outside the transaction.
    const outcome = await this.dataSource.transaction(
      async (manager): Promise<{ session?: Session; revoked?: RevokedSessions }> => {
        const tokens = manager.getRepository(RefreshToken);
        const current = await tokens.findOne({
          where: { tokenHash: hashToken(refreshToken) },
          lock: { mode: 'pessimistic_write' },
        });
        if (!current || !isLive(current)) return {};
        if (current.rotatedAt) {
          if (Date.now() - current.rotatedAt.getTime() > this.config.REFRESH_ROTATION_GRACE_SECONDS * 1000) {
            this.logger.warn(`Refresh token reused after rotation; revoking a session of user ${current.userId}`);
            return { revoked: await this.revokeSessionsIn(manager, current.userId, { only: current.familyId }) };
          }
          const session = await this.successorOf(manager, current, refreshToken);
          return session ? { session } : {};
        }
        const user = await this.users.findById(current.userId);
        if (!user) return {};
        const session = await this.issue(manager, user, current.familyId);
        await tokens.update(current.id, {
          rotatedAt: new Date(),
          successorSealed: sealSuccessor(refreshToken, session.refreshToken),
        });
        return { session };
      },
    );
    await this.revocations.publish(outcome.revoked);
    if (!outcome.session) throw new DomainError('AUTH.SESSION_EXPIRED', SESSION_EXPIRED);
    return outcome.session;
  }

  /** Ends the refresh token's session; says which, so the gateway that asked refuses its access tokens at once. */
  async logout(refreshToken: string): Promise<RpcResponse<typeof AuthRpc.logout>> {
    const current = await this.dataSource.getRepository(RefreshToken).findOneBy({ tokenHash: hashToken(refreshToken) });
    if (!current) return { revoked: false };
    const [revocation] = await this.revokeSessions(current.userId, { only: current.familyId });
    return { revoked: true, ...(revocation ? { revocation } : {}) };
  }

  /**
   * Ends a user's sessions (all of them, `only` one, or all `except` one): their refresh tokens
   * stop working now, and their access tokens on the next request at every gateway replica.
   * Returns what was revoked (nothing when they had already ended).
   */
  async revokeSessions(userId: number, scope: SessionScope = {}): Promise<SessionRevocation[]> {
    const revoked = await this.dataSource.transaction((manager) => this.revokeSessionsIn(manager, userId, scope));
    return this.revocations.publish(revoked);
  }

  /**
   * revokeSessions inside the caller's transaction (a password change revokes with the change):
   * pass what it returns to publishRevocations once the transaction has committed.
   */
  async revokeSessionsIn(
    manager: EntityManager,
    userId: number,
    scope: SessionScope = {},
  ): Promise<RevokedSessions | undefined> {
    const query = manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ revokedAt: () => 'now()' })
      .where('user_id = :userId AND revoked_at IS NULL AND expires_at > now()', { userId });
    if (scope.only) query.andWhere('family_id = :only', { only: scope.only });
    if (scope.except) query.andWhere('family_id <> :except', { except: scope.except });
    const { raw } = await query.returning('family_id').execute();
    const sessionIds = [...new Set((raw as { family_id: string }[]).map((row) => row.family_id))];
    return this.revocations.record(manager, userId, sessionIds);
  }

  /** Makes revocations from revokeSessionsIn take effect at once, after their transaction committed. */
  publishRevocations(revoked: RevokedSessions | undefined): Promise<SessionRevocation[]> {
    return this.revocations.publish(revoked);
  }

  /**
   * The live end of the chain of successors of a token rotated within the grace window, with a
   * new access token; undefined when the session has ended since.
   */
  private async successorOf(
    manager: EntityManager,
    rotated: RefreshToken,
    presented: string,
  ): Promise<Session | undefined> {
    const tokens = manager.getRepository(RefreshToken);
    let row = rotated;
    let token = presented;
    for (let link = 0; link < MAX_SUCCESSOR_LINKS; link += 1) {
      const user = await this.users.findById(row.userId);
      if (!user) return undefined;
      // Rotated before successors were kept (just after an upgrade): a new successor, as before.
      if (!row.successorSealed) return this.issue(manager, user, row.familyId);
      const next = openSuccessor(token, row.successorSealed);
      const successor = next ? await tokens.findOneBy({ tokenHash: hashToken(next) }) : null;
      if (!next || !successor || !isLive(successor)) return undefined;
      if (!successor.rotatedAt) return this.session(user, successor.familyId, next, successor.expiresAt);
      row = successor;
      token = next;
    }
    return undefined;
  }

  /** A new session of the family: an access token and a new refresh token, stored as its hash. */
  private async issue(manager: EntityManager, user: User, familyId: string): Promise<Session> {
    const refreshToken = randomBytes(32).toString('base64url');
    const refreshTokenExpiresAt = new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000);
    await manager.insert(RefreshToken, {
      userId: user.id,
      tokenHash: hashToken(refreshToken),
      familyId,
      expiresAt: refreshTokenExpiresAt,
    });
    return this.session(user, familyId, refreshToken, refreshTokenExpiresAt);
  }

  private session(user: User, familyId: string, refreshToken: string, refreshTokenExpiresAt: Date): Session {
    const accessTokenExpiresAt = new Date(Date.now() + this.config.ACCESS_TOKEN_TTL_SECONDS * 1000);
    const claims: AccessClaims = { sub: String(user.id), username: user.username, role: user.role, sid: familyId };
    const accessToken = jwt.sign(claims, this.accessTokenKey, {
      algorithm: 'HS256',
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
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

function isLive(token: RefreshToken): boolean {
  return !token.revokedAt && token.expiresAt.getTime() > Date.now();
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
