import { UnsafePathError, assertStaysUnder, internalPath, templatePrefix } from './internal-path.js';

const FILES = '/internal/files/{key+}';
const SHARED = '/internal/shared/avatars/{token}';
const KEY = 'users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg';

/** What a WHATWG URL parser (new URL, fetch) makes of a built path. */
const normalised = (path: string) => new URL(path, 'http://media.invalid').pathname;

describe(internalPath.name, () => {
  it('should build a multi-segment path from a storage key and keep the query values apart', () => {
    const path = internalPath(FILES, { key: KEY }, { expires: 1767225600, signature: 'a-b_c' });
    expect(path).toBe(`/internal/files/${KEY}?expires=1767225600&signature=a-b_c`);
  });

  it('should build a one-segment path from a token', () => {
    expect(internalPath(SHARED, { token: 'A'.repeat(43) })).toBe(`/internal/shared/avatars/${'A'.repeat(43)}`);
  });

  it('should leave out undefined query values and encode the others', () => {
    expect(
      internalPath('/internal/format', {}, { url: '/api/files/a?x=1&y=2#z', format: 'png', none: undefined }),
    ).toBe('/internal/format?url=%2Fapi%2Ffiles%2Fa%3Fx%3D1%26y%3D2%23z&format=png');
  });

  it('should percent-encode a value once, so ? and # stay inside their segment', () => {
    const path = internalPath(SHARED, { token: 'a?admin=1#x' });
    expect(path).toBe('/internal/shared/avatars/a%3Fadmin%3D1%23x');
    const url = new URL(path, 'http://media.invalid');
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    expect(url.pathname).toBe(path);
  });

  it.each([
    ['..'],
    ['.'],
    [''],
    ['a/b'],
    ['..\\..\\metrics'],
    ['\\'],
    ['%2e%2e'],
    ['%2E%2E'],
    ['.%2e'],
    ['%252e%252e'],
    ['..%2f..%2fmetrics'],
    ['..%5cmetrics'],
    ['a%00b'],
    ['a\u0000b'],
    ['a\nb'],
    ['a\rb'],
    ['a\u007fb'],
    ['a\u0085b'],
    ['\uff0e\uff0e'],
    ['\u2024\u2024'],
    ['\uff0e'],
    ['a\uff0fb'],
    ['a\uff3cb'],
    ['http://evil.example/metrics'],
    ['//evil.example'],
    ['\ud800'],
  ])('should refuse the segment value %j', (token) => {
    expect(() => internalPath(SHARED, { token })).toThrow(UnsafePathError);
  });

  it.each([
    ['../../metrics'],
    ['users/7/../../../metrics'],
    ['users/7/./selfies/a.jpg'],
    ['users//7/a.jpg'],
    ['/users/7/a.jpg'],
    ['users/7/a.jpg/'],
    ['users/7/%2e%2e/%2e%2e/metrics'],
    ['users/7/%252e%252e/metrics'],
    ['users/7/..%2f..%2fmetrics'],
    ['users\\7\\a.jpg'],
    ['users/7/\u2025'],
    ['//evil.example/x'],
    ['http://evil.example/x'],
    ['users/7/a\u0000.jpg'],
  ])('should refuse the multi-segment value %j', (key) => {
    expect(() => internalPath(FILES, { key })).toThrow(UnsafePathError);
  });

  it('should keep every accepted value under the template prefix after normalisation', () => {
    for (const token of ['...', '.hidden', 'a..b', 'a b', 'ä', '%', 'a%zz', '?', '#', '@', ':', ';']) {
      const path = internalPath(SHARED, { token });
      expect(normalised(path)).toBe(path);
      expect(path.startsWith('/internal/shared/avatars/')).toBe(true);
      expect(decodeURIComponent(path.slice('/internal/shared/avatars/'.length))).toBe(token);
    }
  });

  it('should refuse a missing value and a value the template does not name', () => {
    expect(() => internalPath(SHARED, {})).toThrow(UnsafePathError);
    expect(() => internalPath(SHARED, { token: 'a', key: 'b' })).toThrow(UnsafePathError);
  });

  it('should refuse a control character in a query value', () => {
    expect(() => internalPath('/internal/format', {}, { url: 'a\r\nx-injected: 1' })).toThrow(UnsafePathError);
  });

  it('should say nothing internal to a user when it refuses', () => {
    const error = (() => {
      try {
        internalPath(SHARED, { token: '..' });
      } catch (caught) {
        return caught as UnsafePathError;
      }
      throw new Error('not refused');
    })();
    expect(error.toBody()).toEqual({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'This address is not valid.',
    });
    expect(error.reason).toMatch(/dot segment/);
  });
});

describe(templatePrefix.name, () => {
  it('should be the static part before the first parameter', () => {
    expect(templatePrefix(FILES)).toBe('/internal/files/');
    expect(templatePrefix('/internal/format')).toBe('/internal/format');
  });

  it.each(['internal/x', '//host/x', '/a?b', '/a#b', '/a\\b'])('should refuse the template %j', (template) => {
    expect(() => templatePrefix(template)).toThrow(/path from the root/);
  });
});

describe(assertStaysUnder.name, () => {
  it.each([
    '/internal/files/../metrics',
    '/internal/files/%2e%2e/%2e%2e/metrics',
    '/internal/files/.%2E/metrics',
    '/internal/files/a/..',
    '//evil.example/internal/files/a',
    '/internal/files\\..\\metrics',
    '/internal/files/a#b',
    '/metrics',
  ])('should refuse %j', (path) => {
    expect(() => assertStaysUnder(path, '/internal/files/')).toThrow(UnsafePathError);
  });

  it('should accept a path that normalises to itself under the prefix', () => {
    expect(() => assertStaysUnder('/internal/files/users/1/a.jpg?expires=1', '/internal/files/')).not.toThrow();
  });
});
