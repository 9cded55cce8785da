import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { FILES_PATH_PREFIX } from './public-paths.js';

export type SignatureCheck = { status: 'valid'; secondsLeft: number } | { status: 'invalid' } | { status: 'expired' };

const EXPIRES_PATTERN = /^[0-9]{1,12}$/;
/** The most URLs of the current expiry window kept for reuse (about 2 MB). */
const MAX_KEPT_URLS = 10_000;

/**
 * Signed, expiring image URLs: `/api/files/<key>?expires=<unix s>&signature=<HMAC>`. The
 * signature covers the key and the expiry, with a key derived from MEDIA_SECRET for this use
 * only. Expiries are rounded up to a window of half the lifetime, so one image keeps one URL
 * for a while and browsers can cache it; a URL then works for between 1 and 1.5 lifetimes.
 */
export class UrlSigner {
  /**
   * A key object, made once: HMAC with a Buffer key builds one on every call, which cost a list
   * of 50 avatars (100 signatures) most of media's time.
   */
  private readonly key: KeyObject;
  private readonly window: number;
  /**
   * The URLs signed in the current expiry window, by key: a key has one URL for the whole window,
   * so listing the same avatars again signs nothing (a list of 50 is 100 signatures).
   */
  private readonly kept = new Map<string, string>();
  private keptExpires = 0;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createSecretKey(createHmac('sha256', secret).update('likeness-file-urls-v1').digest());
    this.window = Math.max(1, Math.floor(ttlSeconds / 2));
  }

  /** The relative URL (the SPA is same-origin) that serves `key` until it expires. */
  fileUrl(key: string): string {
    const expires = this.expiry();
    if (expires !== this.keptExpires || this.kept.size >= MAX_KEPT_URLS) {
      this.kept.clear();
      this.keptExpires = expires;
    }
    let url = this.kept.get(key);
    if (url === undefined) {
      url = `${FILES_PATH_PREFIX}${key}?expires=${expires}&signature=${this.sign(key, expires)}`;
      this.kept.set(key, url);
    }
    return url;
  }

  /** When a URL signed now expires, in unix seconds. */
  expiry(): number {
    const earliest = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return Math.ceil(earliest / this.window) * this.window;
  }

  sign(key: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${key}\n${expires}`).digest('base64url');
  }

  /** Checks the signature first, so a forged expiry learns nothing. */
  verify(key: string, expires: unknown, signature: unknown): SignatureCheck {
    if (typeof expires !== 'string' || !EXPIRES_PATTERN.test(expires) || typeof signature !== 'string') {
      return { status: 'invalid' };
    }
    const expected = Buffer.from(this.sign(key, Number(expires)));
    const presented = Buffer.from(signature);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { status: 'invalid' };
    const secondsLeft = Number(expires) - Math.floor(this.now() / 1000);
    return secondsLeft > 0 ? { status: 'valid', secondsLeft } : { status: 'expired' };
  }
}
