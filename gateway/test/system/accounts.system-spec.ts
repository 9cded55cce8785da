import { randomBytes } from 'node:crypto';
import { currentUserSchema } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import pg from 'pg';
import { cookiesFrom } from './api-client.js';
import { type RunningStack, callDeclaringBody, expectError, startTestStack } from './stack-harness.js';

const LIMITS = { LOGIN_LIMIT_PER_IP: '5', LOGIN_LIMIT_PER_ACCOUNT: '3', REGISTER_LIMIT_PER_IP: '4' };

let stack: RunningStack;

/** Each call speaks from its own address, so rate limits only bite where a test means them to. */
let ipCounter = 0;
const nextIp = () => `192.0.2.${(ipCounter += 1) % 250}`;

interface Call {
  method?: string;
  body?: unknown;
  rawBody?: string;
  cookie?: string;
  headers?: Record<string, string>;
  ip?: string;
}

async function call(path: string, { method = 'GET', body, rawBody, cookie, headers = {}, ip = nextIp() }: Call = {}) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      'x-forwarded-for': ip,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : rawBody !== undefined ? { body: rawBody } : {}),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: isJson && text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

beforeAll(async () => {
  stack = await startTestStack({ TRUST_PROXY: '1', PUBLIC_ORIGIN: 'https://app.likeness.test', ...LIMITS });
});

afterAll(async () => {
  const exits = await stack?.shutdown();
  // Every app stopped on SIGTERM by itself, without being killed.
  for (const [app, exit] of exits ?? []) expect({ app, ...exit }).toMatchObject({ app, signal: null, code: 0 });
});

describe('readiness', () => {
  it('should report every service ready and the process live', async () => {
    const ready = await call('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({
      status: 'ready',
      services: { auth: 'up', billing: 'up', media: 'up', training: 'up', generation: 'up', reporting: 'up' },
    });
    expect((await call('/healthz')).json).toEqual({ status: 'ok' });
  });

  it('should serve the OpenAPI document', async () => {
    const docs = await call('/api/docs');
    expect(docs.json).toMatchObject({
      openapi: '3.1.0',
      paths: { '/api/register': { post: {} }, '/api/login': { post: {} } },
    });
  });

  it('should give the SPA its run-time settings without a session, the support address unset falling back to the default', async () => {
    const config = await call('/api/config');
    expect(config.status).toBe(200);
    expect(config.json).toEqual({ supportEmail: 'support@likeness.local', socialLinks: [] });
  });
});

describe('register, log in, stay in, log out', () => {
  let cookie: string;

  it('should register the first account as the administrator and sign it in with secure cookies', async () => {
    const result = await call('/api/register', {
      method: 'POST',
      body: { username: 'ada', email: 'Ada@Example.com', password: 'analytical' },
    });
    expect(result.status).toBe(201);
    expect(currentUserSchema.parse(result.json)).toEqual({
      id: 1,
      username: 'ada',
      email: 'ada@example.com',
      credits: 5,
      role: 'admin',
    });
    const setCookies = result.headers.getSetCookie();
    expect(setCookies).toHaveLength(2);
    for (const setCookie of setCookies) {
      expect(setCookie).toMatch(/^likeness_(access|refresh)=[^;]+;/);
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Strict');
      expect(setCookie).toContain('Path=/api');
      expect(setCookie).not.toContain('Secure');
    }
    cookie = cookiesFrom(result.headers);
  });

  it('should mark the cookies Secure when the request came over HTTPS', async () => {
    const result = await call('/api/register', {
      method: 'POST',
      body: { username: 'secure_sam', email: 'sam@example.com', password: 'secret1' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(result.status).toBe(201);
    expect(result.headers.getSetCookie().every((setCookie) => setCookie.includes('Secure'))).toBe(true);
    expect(result.json).toMatchObject({ id: 2, role: 'user' });
  });

  it('should return the signed-in user from /api/user and /api/auth/me', async () => {
    for (const path of ['/api/user', '/api/auth/me']) {
      const result = await call(path, { cookie });
      expect(result.status).toBe(200);
      expect(result.json).toEqual({ id: 1, username: 'ada', email: 'ada@example.com', credits: 5, role: 'admin' });
    }
  });

  it('should log in with the username or the e-mail address', async () => {
    const byName = await call('/api/login', { method: 'POST', body: { username: 'ADA', password: 'analytical' } });
    const byEmail = await call('/api/login', {
      method: 'POST',
      body: { username: 'ada@example.com', password: 'analytical' },
    });
    expect([byName.status, byEmail.status]).toEqual([200, 200]);
    expect(byEmail.json).toMatchObject({ id: 1, username: 'ada' });
    expect((await call('/api/user', { cookie: cookiesFrom(byEmail.headers) })).json).toMatchObject({ id: 1 });
  });

  it('should refresh an expired session transparently from the refresh cookie', async () => {
    const refreshOnly = cookie
      .split('; ')
      .filter((pair) => pair.startsWith('likeness_refresh='))
      .join('; ');
    const result = await call('/api/user', { cookie: refreshOnly });
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ id: 1 });
    expect(result.headers.getSetCookie().map((setCookie) => setCookie.split('=')[0])).toEqual([
      'likeness_access',
      'likeness_refresh',
    ]);
    cookie = cookiesFrom(result.headers);
  });

  it('should sign out, clear the cookies and revoke the refresh token', async () => {
    const result = await call('/api/logout', { method: 'POST', cookie });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ success: true });
    expect(result.headers.getSetCookie().every((setCookie) => setCookie.includes('Max-Age=0'))).toBe(true);
    const refreshOnly = cookie
      .split('; ')
      .filter((pair) => pair.startsWith('likeness_refresh='))
      .join('; ');
    expectError(await call('/api/user', { cookie: refreshOnly }), 401, 'AUTH.UNAUTHENTICATED');
  });

  it('should refuse the current user to a visitor, or one with a forged token', async () => {
    expectError(await call('/api/user'), 401, 'AUTH.UNAUTHENTICATED', 'Please log in to continue.');
    expectError(
      await call('/api/user', { cookie: 'likeness_access=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.' }),
      401,
      'AUTH.UNAUTHENTICATED',
    );
  });

  it('should announce the new accounts to the other services', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await waitFor(async () => Number((await db.query(`SELECT count(*) AS n FROM reporting.users`)).rows[0].n) >= 2, {
        what: 'reporting to see the new accounts',
      });
    } finally {
      await db.end();
    }
  });
});

describe('bad input', () => {
  it.each([
    [{ username: 'ab', email: 'x@example.com', password: 'secret1' }, 'Username must be at least 3 characters'],
    [
      { username: 'a'.repeat(21), email: 'x@example.com', password: 'secret1' },
      'Username must be at most 20 characters',
    ],
    [
      { username: 'bad name', email: 'x@example.com', password: 'secret1' },
      'Username can only contain letters, numbers, and underscores',
    ],
    [{ username: 'okname', email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email'],
    [{ username: 'okname', email: 'x@example.com', password: '12345' }, 'Password must be at least 6 characters'],
    [{ email: 'x@example.com', password: 'secret1' }, 'Username is required'],
  ])('should refuse the registration %j with the message %p', async (body, message) => {
    const result = await call('/api/register', { method: 'POST', body });
    expectError(result, 400, 'COMMON.VALIDATION_FAILED', message);
  });

  it('should refuse a login without a username or with a short password', async () => {
    expectError(
      await call('/api/login', { method: 'POST', body: { username: '', password: 'secret1' } }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Username is required',
    );
    expectError(
      await call('/api/login', { method: 'POST', body: { username: 'ada', password: '123' } }),
      400,
      'COMMON.VALIDATION_FAILED',
      'Password must be at least 6 characters',
    );
  });

  it('should answer unreadable, empty, oversized and mistyped bodies with a clear 4xx', async () => {
    expectError(
      await call('/api/login', {
        method: 'POST',
        rawBody: '{"username":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'COMMON.VALIDATION_FAILED',
    );
    expectError(
      await call('/api/login', { method: 'POST', body: ['ada', 'secret1'] }),
      400,
      'COMMON.VALIDATION_FAILED',
      'The request body must be a JSON object.',
    );
    expectError(await call('/api/login', { method: 'POST' }), 400, 'COMMON.VALIDATION_FAILED');
    expectError(
      await callDeclaringBody(stack.url, '/api/register', 2 * 1024 * 1024, {
        'content-type': 'application/json',
        'x-forwarded-for': nextIp(),
      }),
      413,
      'COMMON.PAYLOAD_TOO_LARGE',
    );
    expectError(
      await call('/api/login', { method: 'POST', rawBody: 'username=ada', headers: { 'content-type': 'text/plain' } }),
      415,
      'COMMON.UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON (Content-Type: application/json).',
    );
    expectError(
      await call('/api/login', { method: 'POST', rawBody: '<x/>', headers: { 'content-type': 'application/xml' } }),
      415,
      'COMMON.UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('should answer unknown API paths with a JSON 404', async () => {
    expectError(await call('/api/no-such-thing'), 404, 'COMMON.NOT_FOUND');
    expectError(await call('/api/no-such-thing', { method: 'POST', body: {} }), 404, 'COMMON.NOT_FOUND');
  });
});

describe('duplicates and wrong passwords', () => {
  it('should refuse a taken username in any case and a taken e-mail with a 409', async () => {
    expectError(
      await call('/api/register', {
        method: 'POST',
        body: { username: 'ADA', email: 'other@example.com', password: 'secret1' },
      }),
      409,
      'AUTH.USERNAME_TAKEN',
      'That username is already taken',
    );
    expectError(
      await call('/api/register', {
        method: 'POST',
        body: { username: 'other', email: 'ADA@example.com', password: 'secret1' },
      }),
      409,
      'AUTH.EMAIL_TAKEN',
      'An account with that email already exists',
    );
  });

  it('should answer a wrong password and an unknown account alike', async () => {
    const wrong = await call('/api/login', { method: 'POST', body: { username: 'ada', password: 'not-the-one' } });
    const unknown = await call('/api/login', {
      method: 'POST',
      body: { username: 'nobody_here', password: 'not-the-one' },
    });
    expectError(wrong, 401, 'AUTH.INVALID_CREDENTIALS', 'Invalid username or password.');
    expect(unknown.json).toEqual(wrong.json);
  });
});

describe('cross-site requests', () => {
  const login = { username: 'ada', password: 'analytical' };

  it('should refuse a state-changing call from another origin', async () => {
    expectError(
      await call('/api/login', { method: 'POST', body: login, headers: { origin: 'https://evil.example' } }),
      403,
      'COMMON.CSRF_REJECTED',
      'This request came from another website and was refused.',
    );
    expectError(
      await call('/api/logout', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      'COMMON.CSRF_REJECTED',
    );
    expectError(
      await call('/api/register', { method: 'POST', body: login, headers: { origin: 'null' } }),
      403,
      'COMMON.CSRF_REJECTED',
    );
  });

  it('should accept calls from its own origin and the configured public origin', async () => {
    const own = await call('/api/login', {
      method: 'POST',
      body: login,
      headers: { origin: stack.url, 'sec-fetch-site': 'same-origin' },
    });
    const configured = await call('/api/login', {
      method: 'POST',
      body: login,
      headers: { origin: 'https://app.likeness.test' },
    });
    expect([own.status, configured.status]).toEqual([200, 200]);
  });

  it('should not apply to reads', async () => {
    expect((await call('/readyz', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('should limit logins per IP address and say when to retry', async () => {
    const ip = '203.0.113.10';
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (
          await call('/api/login', {
            method: 'POST',
            body: { username: `user_${attempt}`, password: 'wrong-password' },
            ip,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await call('/api/login', { method: 'POST', body: { username: 'ada', password: 'analytical' }, ip });
    expectError(limited, 429, 'COMMON.RATE_LIMITED', /Too many attempts/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('should limit failed logins per account across addresses, and not successful ones', async () => {
    const good = { username: 'secure_sam', password: 'secret1' };
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect((await call('/api/login', { method: 'POST', body: good })).status).toBe(200);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push(
        (await call('/api/login', { method: 'POST', body: { username: 'Secure_Sam', password: 'wrong-password' } }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Even the right password waits now: the account is under attack.
    expect((await call('/api/login', { method: 'POST', body: good })).status).toBe(429);
  });

  it('should limit registrations per IP address', async () => {
    const ip = '203.0.113.20';
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push(
        (
          await call('/api/register', {
            method: 'POST',
            body: { username: `flood_${attempt}`, email: `flood_${attempt}@example.com`, password: 'secret1' },
            ip,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
  });
});

describe('observability', () => {
  it("should carry the caller's correlation id into the services' logs", async () => {
    const correlationId = `sys-${randomBytes(6).toString('hex')}`;
    const result = await call('/api/login', {
      method: 'POST',
      body: { username: 'ada', password: 'analytical' },
      headers: { 'x-correlation-id': correlationId },
    });
    expect(result.headers.get('x-correlation-id')).toBe(correlationId);
    await waitFor(async () => stack.logOf('gateway').includes(correlationId), { what: 'the gateway log line' });
    const authLine = await waitFor(
      async () =>
        stack
          .logOf('auth')
          .split('\n')
          .find((line) => line.includes(correlationId)),
      { what: 'the auth service log line' },
    );
    expect(JSON.parse(authLine)).toMatchObject({
      correlationId,
      msg: expect.stringContaining('auth.sessions.login ok'),
    });
  });
});

describe('the single-page app', () => {
  it('should serve the SPA for client-side routes and keep API 404s as JSON', async () => {
    const page = await call('/dashboard');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<div id="root">');
    // Security headers on every response: no framing, no sniffing, only our own scripts.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Stripe's payment form needs its script and iframes.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' https://js.stripe.com");
    expect(page.headers.get('content-security-policy')).toContain('frame-src https://js.stripe.com');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expectError(await call('/api/dashboard'), 404, 'COMMON.NOT_FOUND');
    expect((await call('/assets/does-not-exist.js')).status).toBe(404);
  });
});
