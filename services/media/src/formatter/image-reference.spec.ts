import { parseImageReference } from './image-reference.js';

const KEY = 'users/7/avatars/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.webp';
const TOKEN = 'x'.repeat(43);

describe(parseImageReference.name, () => {
  it.each([
    [`/api/files/${KEY}?expires=1&signature=abc`, { kind: 'file', key: KEY }],
    [`https://likeness.example/api/files/${KEY}`, { kind: 'file', key: KEY }],
    [`http://127.0.0.1:9/api/files/${KEY}`, { kind: 'file', key: KEY }],
    [`/api/shared/avatars/${TOKEN}`, { kind: 'shared', token: TOKEN }],
    [`https://likeness.example/api/shared/avatars/${TOKEN}#top`, { kind: 'shared', token: TOKEN }],
  ])('should read %s by its path alone', (url, reference) => {
    expect(parseImageReference(url)).toEqual(reference);
  });

  it.each([
    'http://127.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'file:///etc/passwd',
    `file:///api/files/${KEY}`,
    'data:image/png;base64,iVBORw0KGgo=',
    `ftp://example.com/api/files/${KEY}`,
    'javascript:alert(1)',
    '/api/files/',
    '/api/shared/avatars/',
    `/api/files/../../etc/passwd`,
    '/api/user',
    'http://[::1',
  ])('should refuse %s', (url) => {
    expect(parseImageReference(url)).toBeUndefined();
  });
});
