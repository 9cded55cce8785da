import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_STORED_INTEGER } from '@likeness/contracts';

/**
 * Calls between our own apps over HTTP (the gateway streaming image bytes to and from media,
 * which NATS's 1 MB payload limit rules out). The caller proves it is one of ours with a token
 * derived from a shared secret, and says on whose behalf it calls.
 */
export const INTERNAL_AUTH_HEADER = 'x-likeness-internal';
export const INTERNAL_USER_HEADER = 'x-likeness-user-id';

/** The token the gateway sends; derived, so the secret itself never travels. */
export function internalAuthToken(secret: string): string {
  return createHmac('sha256', secret).update('likeness-internal-http-v1').digest('base64url');
}

/** Constant-time check of a presented token. */
export function isInternalAuthToken(secret: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(internalAuthToken(secret));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The user an internal call acts for, or undefined when the header is absent or malformed. */
export function internalUserId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= MAX_STORED_INTEGER ? id : undefined;
}
