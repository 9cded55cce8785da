import { UrlSigner } from './url-signer.js';

const SECRET = 'a-media-secret-of-at-least-32-characters!';
const KEY = 'users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg';

function parse(url: string) {
  const parsed = new URL(url, 'http://x.invalid');
  return {
    key: decodeURIComponent(parsed.pathname.slice('/api/files/'.length)),
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
  };
}

describe(UrlSigner.name, () => {
  let now = Date.UTC(2026, 0, 1, 12, 5, 0);
  const sut = () => new UrlSigner(SECRET, 3600, () => now);

  beforeEach(() => {
    now = Date.UTC(2026, 0, 1, 12, 5, 0);
  });

  it('should sign a relative /api/files URL that verifies', () => {
    const url = sut().fileUrl(KEY);
    expect(url).toMatch(/^\/api\/files\/users\/7\/selfies\/[^?]+\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    const { key, expires, signature } = parse(url);
    expect(key).toBe(KEY);
    expect(sut().verify(key, expires, signature)).toEqual({ status: 'valid', secondsLeft: expect.any(Number) });
  });

  it('should give the same URL for a while so browsers can cache the image', () => {
    const first = sut().fileUrl(KEY);
    now += 60_000;
    expect(sut().fileUrl(KEY)).toBe(first);
  });

  it('should give a key a new URL, valid for the new window, once its window has passed', () => {
    const signer = sut();
    const first = signer.fileUrl(KEY);
    expect(signer.fileUrl(KEY)).toBe(first);
    now += 1800_000;
    const next = signer.fileUrl(KEY);
    expect(next).not.toBe(first);
    const { key, expires, signature } = parse(next);
    expect(Number(expires)).toBeGreaterThan(Number(parse(first).expires));
    expect(signer.verify(key, expires, signature)).toEqual({ status: 'valid', secondsLeft: expect.any(Number) });
  });

  it('should keep a URL valid for at least the lifetime and at most one and a half', () => {
    for (const offset of [0, 1, 1799, 1800, 1801, 3599]) {
      const at = now + offset * 1000;
      const expires = new UrlSigner(SECRET, 3600, () => at).expiry();
      const lifetime = expires - Math.floor(at / 1000);
      expect(lifetime).toBeGreaterThanOrEqual(3600);
      expect(lifetime).toBeLessThanOrEqual(5400);
    }
  });

  it('should call a URL invalid when its signature, key or expiry was changed', () => {
    const { key, expires, signature } = parse(sut().fileUrl(KEY));
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`;
    expect(sut().verify(key, expires, flipped)).toEqual({ status: 'invalid' });
    expect(sut().verify('users/8/selfies/other.jpg', expires, signature)).toEqual({ status: 'invalid' });
    expect(sut().verify(key, String(Number(expires) + 3600), signature)).toEqual({ status: 'invalid' });
    expect(sut().verify(key, expires, undefined)).toEqual({ status: 'invalid' });
    expect(sut().verify(key, ['1', '2'], signature)).toEqual({ status: 'invalid' });
    expect(sut().verify(key, '-1', signature)).toEqual({ status: 'invalid' });
  });

  it('should refuse a URL signed with another secret', () => {
    const { key, expires, signature } = parse(new UrlSigner(`${SECRET}-other`, 3600, () => now).fileUrl(KEY));
    expect(sut().verify(key, expires, signature)).toEqual({ status: 'invalid' });
  });

  it('should call a correctly signed URL expired once its time has passed', () => {
    const { key, expires, signature } = parse(sut().fileUrl(KEY));
    now = Number(expires) * 1000;
    expect(sut().verify(key, expires, signature)).toEqual({ status: 'expired' });
  });
});
