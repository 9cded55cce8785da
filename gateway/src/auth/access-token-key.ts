import { type KeyObject, createSecretKey } from 'node:crypto';

/** How an access token is checked: HS256 only, issued by and for us (its expiry is checked too). */
export const ACCESS_TOKEN_VERIFY_OPTIONS = { algorithms: ['HS256' as const], issuer: 'likeness', audience: 'likeness' };

/**
 * The access tokens' key as a key object, made once. Given the secret as a string, jsonwebtoken
 * makes one on every verification, after first trying to read the secret as a PEM public key
 * (a thrown error each time): a sixth of the gateway's time on an authenticated read.
 */
export function accessTokenKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}
