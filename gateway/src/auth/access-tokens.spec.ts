import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import type { GatewayConfig } from '../gateway.config.js';
import { AccessTokens } from './access-tokens.js';
import type { SessionRevocationList } from './session-revocation-list.js';
import { ACCESS_COOKIE } from './session-cookies.js';

const SECRET = 'access-tokens-spec-secret-access-tokens-spec';
const revokedSession = randomUUID();
const liveSession = randomUUID();
const tokens = new AccessTokens(
  { JWT_SECRET: SECRET } as GatewayConfig,
  {
    isRevoked: (sessionId: string) => sessionId === revokedSession,
  } as SessionRevocationList,
);

const claims = { sub: '42', username: 'ada', role: 'user', sid: liveSession };
const signed = (payload: object = claims, options: jwt.SignOptions = {}, key: jwt.Secret = SECRET): string =>
  jwt.sign(payload, key, { algorithm: 'HS256', expiresIn: 900, issuer: 'likeness', audience: 'likeness', ...options });
const requestWith = (token: string | undefined) =>
  ({ cookies: token === undefined ? {} : { [ACCESS_COOKIE]: token } }) as unknown as FastifyRequest;
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe(AccessTokens.name, () => {
  it('should name the user of a token auth signed, with the session it belongs to', () => {
    expect(tokens.userOf(requestWith(signed()))).toEqual({
      id: 42,
      username: 'ada',
      role: 'user',
      sessionId: liveSession,
    });
  });

  it.each([
    ['no cookie', undefined],
    ['an empty cookie', ''],
    ['not a token', 'not-a-token'],
    ['an expired token', signed(claims, { expiresIn: -10 })],
    ['another issuer', signed(claims, { issuer: 'someone-else' })],
    ['another audience', signed(claims, { audience: 'someone-else' })],
    ['another key', signed(claims, {}, 'another-secret-another-secret-another-secret')],
    ['another algorithm', signed(claims, { algorithm: 'HS512' })],
    ['no signature', `${base64url({ alg: 'none', typ: 'JWT' })}.${signed().split('.')[1]}.`],
    ['a changed payload', signed().replace(/\.[^.]+\./, `.${base64url({ ...claims, sub: '1', role: 'admin' })}.`)],
    ['claims not of our shape', signed({ sub: '42', username: 'ada', role: 'owner', sid: liveSession })],
    ['no session', signed({ sub: '42', username: 'ada', role: 'user' })],
    ['a revoked session', signed({ ...claims, sid: revokedSession })],
  ])('should name nobody for %s', (_case, token) => {
    expect(tokens.userOf(requestWith(token))).toBeUndefined();
  });
});
