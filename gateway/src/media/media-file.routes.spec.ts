import { parseSharedAvatarUrl, parseSignedFileUrl } from './media-file.routes.js';

const KEY = 'users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg';
const SIGNATURE = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE';
const QUERY = `expires=1767225600&signature=${SIGNATURE}`;
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

describe(parseSignedFileUrl.name, () => {
  it.each([
    KEY,
    'users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.thumb.webp',
    'users/12/avatars/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg',
    'users/12/avatars/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.thumb.webp',
    'users/3/training/41.zip',
  ])('should read the key %j media signs, with its expiry and signature', (key) => {
    expect(parseSignedFileUrl(`/api/files/${key}?${QUERY}`)).toEqual({
      key,
      expires: '1767225600',
      signature: SIGNATURE,
    });
  });

  it('should decode the key once', () => {
    expect(
      parseSignedFileUrl(`/api/files/users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60%2Ejpg?${QUERY}`)?.key,
    ).toBe(KEY);
  });

  it('should forward only the expiry and the signature', () => {
    expect(parseSignedFileUrl(`/api/files/${KEY}?${QUERY}&admin=1&path=..%2Fmetrics`)).toEqual({
      key: KEY,
      expires: '1767225600',
      signature: SIGNATURE,
    });
  });

  it.each([
    ['a parent segment', '/api/files/%2e%2e/%2e%2e/metrics'],
    ['a parent segment to health', '/api/files/%2e%2e/%2e%2e/health'],
    ['a raw parent segment', '/api/files/../../metrics'],
    ['an upper-case encoded dot', '/api/files/%2E%2E/%2E%2E/metrics'],
    ['a double-encoded dot', '/api/files/%252e%252e/%252e%252e/metrics'],
    ['an encoded slash', '/api/files/..%2f..%2fmetrics'],
    ['an encoded slash inside a real key', `/api/files/users%2F7%2Fselfies%2F0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg`],
    ['a double-encoded slash', '/api/files/..%252f..%252fmetrics'],
    ['an encoded backslash', '/api/files/..%5c..%5cmetrics'],
    ['a backslash', '/api/files/..\\..\\metrics'],
    ['a climb out of a real key', `/api/files/${KEY}/../../../../metrics`],
    ['a key media never issues', '/api/files/users/7/other/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg'],
    ['a staging key', '/api/files/staging/generations/1/1'],
    ['a NUL byte', `/api/files/${KEY}%00`],
    ['a malformed escape', '/api/files/users/7/%zz'],
    ['an absolute URL', '/api/files/http://evil.example/x'],
    ['an empty key', '/api/files/'],
  ])('should name no file for %s', (_what, path) => {
    expect(parseSignedFileUrl(`${path}?${QUERY}`)).toBeUndefined();
  });

  it.each([
    ['no signature', `expires=1767225600`],
    ['no expiry', `signature=${SIGNATURE}`],
    ['two signatures', `${QUERY}&signature=${SIGNATURE}`],
    ['a signature of another shape', `expires=1767225600&signature=${SIGNATURE}%2F..`],
    ['an expiry that is no number', `expires=soon&signature=${SIGNATURE}`],
  ])('should name no file for a query with %s', (_what, query) => {
    expect(parseSignedFileUrl(`/api/files/${KEY}?${query}`)).toBeUndefined();
  });
});

describe(parseSharedAvatarUrl.name, () => {
  it('should read a share token', () => {
    expect(parseSharedAvatarUrl(`/api/shared/avatars/${TOKEN}`)).toEqual({ token: TOKEN });
    expect(parseSharedAvatarUrl(`/api/shared/avatars/${TOKEN}?utm_source=x`)).toEqual({ token: TOKEN });
  });

  it.each([
    '/api/shared/avatars/%2e%2e/%2e%2e/metrics',
    '/api/shared/avatars/%2e%2e/%2e%2e/health',
    '/api/shared/avatars/..%2f..%2fmetrics',
    '/api/shared/avatars/%252e%252e%252fmetrics',
    '/api/shared/avatars/..\\..\\metrics',
    `/api/shared/avatars/${TOKEN}/../../../metrics`,
    `/api/shared/avatars/${TOKEN.slice(1)}`,
    `/api/shared/avatars/${TOKEN}%00`,
    '/api/shared/avatars/',
  ])('should name no avatar for %j', (path) => {
    expect(parseSharedAvatarUrl(path)).toBeUndefined();
  });
});
