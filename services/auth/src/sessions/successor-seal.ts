import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A rotated refresh token's successor, encrypted (AES-256-GCM) under a key derived from the old
 * token itself. The database keeps only the old token's SHA-256, so the successor can be read back
 * by whoever presents the old token, and by nobody who reads the database.
 */
export function sealSuccessor(oldToken: string, successor: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(oldToken), iv);
  const sealed = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The successor sealed with `oldToken`, or undefined when it was sealed with another token. */
export function openSuccessor(oldToken: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(oldToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function keyOf(token: string): Buffer {
  // Independent of the SHA-256 the database keeps: HKDF with its own label.
  return Buffer.from(hkdfSync('sha256', token, 'likeness refresh successor', 'v1', 32));
}
