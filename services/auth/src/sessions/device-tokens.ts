import { type KeyObject, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthConfig } from '../auth.config.js';

/** How long a browser stays known to an account after its last successful login. */
export const DEVICE_TOKEN_TTL_DAYS = 180;
const VERSION = 'd1';

export interface IssuedDeviceToken {
  token: string;
  expiresAt: Date;
}

/**
 * OWASP's device cookies: a successful login hands the browser a token naming the account, signed
 * with a key derived from JWT_SECRET. A later login to that account carrying it is limited per
 * token instead of per account, so strangers who spend the account's limit cannot lock out a
 * browser its owner has used before. The token proves only that this browser once knew the
 * password: it signs nobody in and opens no other account.
 */
@Injectable()
export class DeviceTokens {
  /** A key object, made once (a Buffer key would be turned into one on every signature). */
  private readonly key: KeyObject;

  constructor(@Inject(APP_CONFIG) config: AuthConfig) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', config.JWT_SECRET, '', 'likeness device token v1', 32)));
  }

  issue(userId: number): IssuedDeviceToken {
    const expiresAt = new Date(Date.now() + DEVICE_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000);
    const body = [VERSION, userId, randomBytes(16).toString('base64url'), Math.floor(expiresAt.getTime() / 1000)].join(
      '.',
    );
    return { token: `${body}.${this.sign(body)}`, expiresAt };
  }

  /** The token's own id when it is genuine, unexpired and names `userId`; otherwise undefined. */
  deviceOf(token: string | undefined, userId: number): string | undefined {
    const parts = token?.split('.') ?? [];
    if (parts.length !== 5) return undefined;
    const [version, owner, id, expires, signature] = parts as [string, string, string, string, string];
    const expected = Buffer.from(this.sign([version, owner, id, expires].join('.')));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (version !== VERSION || owner !== String(userId) || Number(expires) * 1000 <= Date.now()) return undefined;
    return id;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
