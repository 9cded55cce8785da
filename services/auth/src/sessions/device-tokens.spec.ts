import type { AuthConfig } from '../auth.config.js';
import { DeviceTokens } from './device-tokens.js';

const config = { JWT_SECRET: 's'.repeat(32) } as AuthConfig;

describe(DeviceTokens.name, () => {
  const sut = new DeviceTokens(config);

  it('should recognise its own token for the account it names', () => {
    const { token, expiresAt } = sut.issue(7);
    expect(sut.deviceOf(token, 7)).toMatch(/^[\w-]{22}$/);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 170 * 24 * 60 * 60 * 1000);
  });

  it('should give each login its own device id', () => {
    expect(sut.deviceOf(sut.issue(7).token, 7)).not.toBe(sut.deviceOf(sut.issue(7).token, 7));
  });

  it.each([
    ['another account', (token: string) => token, 8],
    ['a changed account', (token: string) => token.replace(/^d1\.7\./, 'd1.8.'), 8],
    ['a changed expiry', (token: string) => token.replace(/\.(\d+)\.([^.]+)$/, '.9999999999.$2'), 7],
    ['a cut signature', (token: string) => token.slice(0, -2), 7],
    ['another secret', () => new DeviceTokens({ JWT_SECRET: 't'.repeat(32) } as AuthConfig).issue(7).token, 7],
    ['garbage', () => 'not-a-token', 7],
  ])('should refuse %s', (_case, forge, userId) => {
    expect(sut.deviceOf(forge(sut.issue(7).token), userId)).toBeUndefined();
  });

  it('should refuse no token at all', () => {
    expect(sut.deviceOf(undefined, 7)).toBeUndefined();
  });
});
