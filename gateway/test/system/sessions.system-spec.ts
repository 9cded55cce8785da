import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, freePort, waitFor } from '@likeness/testing';
import pg from 'pg';
import { cookiesFrom, photo } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

/** Small enough to reach in a test, and each below the next. */
const LIMITS = {
  LOGIN_LIMIT_PER_IP: '30',
  LOGIN_LIMIT_PER_ACCOUNT: '10',
  LOGIN_LIMIT_PER_IP_AND_ACCOUNT: '5',
  REFRESH_ROTATION_GRACE_SECONDS: '2',
  // One argon2 at a time with 12 waiting: room for the 10 verifications the account limit lets in.
  PASSWORD_HASH_CONCURRENCY: '1',
  PASSWORD_HASH_QUEUE: '12',
  UPLOAD_LIMIT_PER_MINUTE: '1',
  UPLOAD_LIMIT_BURST: '2',
  IMAGE_FORMATTER_LIMIT_PER_MINUTE: '1',
  IMAGE_FORMATTER_LIMIT_BURST: '3',
};
const PASSWORD = 'correct-horse';

let stack: RunningStack;
let db: pg.Client;

/** Each call speaks from its own address unless it names one, so limits bite only where meant. */
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;
};

interface Call {
  method?: string;
  body?: unknown;
  form?: FormData;
  cookie?: string;
  ip?: string;
  baseUrl?: string;
}

async function call(
  path: string,
  { method = 'GET', body, form, cookie, ip = nextIp(), baseUrl = stack.url }: Call = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-forwarded-for': ip,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : form ? { body: form } : {}),
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

/** One cookie of a cookie header, e.g. only the access token. */
function only(cookie: string, name: 'likeness_access' | 'likeness_refresh' | 'likeness_device'): string {
  return cookie
    .split('; ')
    .filter((pair) => pair.startsWith(`${name}=`))
    .join('; ');
}

async function register(username: string): Promise<string> {
  const result = await call('/api/register', {
    method: 'POST',
    body: { username, email: `${username}@example.com`, password: PASSWORD },
  });
  expect(result.status).toBe(201);
  return cookiesFrom(result.headers);
}

async function login(username: string, password = PASSWORD, options: Pick<Call, 'ip' | 'cookie'> = {}) {
  return call('/api/login', { method: 'POST', body: { username, password }, ...options });
}

const statusCounts = (results: { status: number }[]) =>
  results.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );

beforeAll(async () => {
  stack = await startTestStack({ TRUST_PROXY: '1', ...LIMITS });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await stack?.shutdown();
});

describe('revocation', () => {
  it("should refuse a logged-out session's access cookie on the very next call while the other session works", async () => {
    const first = await register('rita');
    const second = cookiesFrom((await login('rita')).headers);
    for (const cookie of [first, second]) expect((await call('/api/user', { cookie })).status).toBe(200);

    expect((await call('/api/logout', { method: 'POST', cookie: first })).status).toBe(200);

    expectError(await call('/api/user', { cookie: only(first, 'likeness_access') }), 401, 'AUTH.UNAUTHENTICATED');
    const withBoth = await call('/api/user', { cookie: first });
    expectError(withBoth, 401, 'AUTH.UNAUTHENTICATED');
    expect(withBoth.headers.getSetCookie().filter((setCookie) => setCookie.includes('Max-Age=0'))).toHaveLength(2);
    expect((await call('/api/user', { cookie: second })).json).toMatchObject({ username: 'rita' });
  });

  it("should refuse the stolen session's access token at once when its rotated refresh token is replayed", async () => {
    const stolen = await register('victor');
    // The victim's browser refreshes; the thief keeps the old refresh token.
    const rotated = await call('/api/user', { cookie: only(stolen, 'likeness_refresh') });
    expect(rotated.status).toBe(200);
    const victim = cookiesFrom(rotated.headers);
    expect((await call('/api/user', { cookie: only(victim, 'likeness_access') })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past REFRESH_ROTATION_GRACE_SECONDS

    expectError(await call('/api/user', { cookie: only(stolen, 'likeness_refresh') }), 401, 'AUTH.UNAUTHENTICATED');

    expectError(await call('/api/user', { cookie: only(victim, 'likeness_access') }), 401, 'AUTH.UNAUTHENTICATED');
    expectError(await call('/api/user', { cookie: only(stolen, 'likeness_access') }), 401, 'AUTH.UNAUTHENTICATED');
  });

  describe('a gateway replica started after the revocation', () => {
    let replica: ChildProcess | undefined;

    afterAll(async () => {
      if (replica && replica.exitCode === null) {
        const exited = new Promise((resolve) => replica!.once('exit', resolve));
        replica.kill('SIGTERM');
        await exited;
      }
    });

    it('should still refuse the revoked access token and accept a live one', async () => {
      const revoked = await register('rhea');
      const live = cookiesFrom((await login('rhea')).headers);
      expect((await call('/api/logout', { method: 'POST', cookie: revoked })).status).toBe(200);

      const port = await freePort();
      replica = spawn(process.execPath, [join(ROOT, 'gateway/dist/main.js')], {
        cwd: ROOT,
        env: { ...process.env, ...stack.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      });
      const baseUrl = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok, {
        what: 'the second gateway replica',
      });

      expectError(
        await call('/api/user', { cookie: only(revoked, 'likeness_access'), baseUrl }),
        401,
        'AUTH.UNAUTHENTICATED',
      );
      expect((await call('/api/user', { cookie: only(live, 'likeness_access'), baseUrl })).status).toBe(200);
    });
  });
});

describe('refresh', () => {
  it('should give two concurrent refreshes with one token the same new token, leaving one live token', async () => {
    const session = await register('rory');
    const refreshOnly = only(session, 'likeness_refresh');
    const [a, b] = await Promise.all([
      call('/api/user', { cookie: refreshOnly }),
      call('/api/user', { cookie: refreshOnly }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const newA = only(cookiesFrom(a.headers), 'likeness_refresh');
    expect(newA).not.toBe(refreshOnly);
    expect(only(cookiesFrom(b.headers), 'likeness_refresh')).toBe(newA);

    const { rows } = await db.query<{ live: string }>(
      `SELECT count(*) AS live FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id
        WHERE u.username = 'rory' AND t.rotated_at IS NULL AND t.revoked_at IS NULL`,
    );
    expect(Number(rows[0]!.live)).toBe(1);
    // The successor works like any refresh token.
    expect((await call('/api/user', { cookie: newA })).status).toBe(200);
  });

  it.each([
    ['an oversized', `likeness_refresh=${'a'.repeat(600)}`],
    ['a malformed', 'likeness_refresh=%00%01%02'],
  ])('should answer %s refresh cookie with 401 and clear the cookies', async (_kind, cookie) => {
    const result = await call('/api/user', { cookie });
    expectError(result, 401, 'AUTH.UNAUTHENTICATED');
    expect(result.headers.getSetCookie().filter((setCookie) => setCookie.includes('Max-Age=0'))).toHaveLength(2);
  });
});

describe('login limits', () => {
  it('should let exactly LOGIN_LIMIT_PER_ACCOUNT of 60 parallel wrong passwords reach verification', async () => {
    await register('target');
    const results = await Promise.all(Array.from({ length: 60 }, () => login('target', 'wrong-password')));
    // A 401 is an attempt that reached the password check; a 429 one that never did.
    expect(statusCounts(results)).toEqual({ 401: 10, 429: 50 });
    const refused = results.find((result) => result.status === 429)!;
    expectError(
      refused,
      429,
      'COMMON.RATE_LIMITED',
      /^Too many attempts\. Please wait (a minute|\d+ minutes) and try again\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('should count the username and the e-mail address of one account together', async () => {
    await register('dual');
    const results = [];
    for (let attempt = 0; attempt < 6; attempt += 1) results.push(await login('DUAL', 'wrong-password'));
    for (let attempt = 0; attempt < 6; attempt += 1) results.push(await login('Dual@Example.com', 'wrong-password'));
    expect(results.map((result) => result.status)).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it('should limit an unknown name like a known account', async () => {
    const results = [];
    for (let attempt = 0; attempt < 11; attempt += 1) results.push(await login(' Nobody_Here ', 'wrong-password'));
    expect(results.map((result) => result.status)).toEqual([...Array(10).fill(401), 429]);
  });

  it('should not let a stranger at one address lock the owner out', async () => {
    await register('owner');
    const stranger = '203.0.113.66';
    const results = [];
    for (let attempt = 0; attempt < 8; attempt += 1)
      results.push(await login('owner', 'wrong-password', { ip: stranger }));
    expect(results.map((result) => result.status)).toEqual([...Array(5).fill(401), 429, 429, 429]);
    expect((await login('owner')).status).toBe(200);
  });

  it('should not count successful logins', async () => {
    await register('steady');
    for (let attempt = 0; attempt < 15; attempt += 1) expect((await login('steady')).status).toBe(200);
    const results = [];
    for (let attempt = 0; attempt < 11; attempt += 1) results.push(await login('steady', 'wrong-password'));
    expect(results.map((result) => result.status)).toEqual([...Array(10).fill(401), 429]);
  });

  it('should let a browser that signed in before sign in while strangers have locked the account', async () => {
    await register('dora');
    const signedInBefore = only(cookiesFrom((await login('dora')).headers), 'likeness_device');
    expect(signedInBefore).toMatch(/^likeness_device=./);
    const attack = await Promise.all(Array.from({ length: 12 }, () => login('dora', 'wrong-password')));
    expect(statusCounts(attack)).toEqual({ 401: 10, 429: 2 });

    expect((await login('dora')).status).toBe(429);
    expect((await login('dora', PASSWORD, { cookie: signedInBefore })).status).toBe(200);
    // The device cookie is no key to another account.
    await register('dora_two');
    await Promise.all(Array.from({ length: 11 }, () => login('dora_two', 'wrong-password')));
    expect((await login('dora_two', PASSWORD, { cookie: signedInBefore })).status).toBe(429);
  });
});

describe('password hashing under a burst', () => {
  it('should answer past the bound at once with 503 and Retry-After, and the rest normally', async () => {
    const usernames = Array.from({ length: 40 }, (_, index) => `burst_${index}`);
    for (const username of usernames) await register(username);
    const results = await Promise.all(usernames.map((username) => login(username)));
    const counts = statusCounts(results);
    expect(Object.keys(counts).sort()).toEqual(['200', '503']);
    for (const busy of results.filter((result) => result.status === 503)) {
      expectError(busy, 503, 'COMMON.SERVICE_UNAVAILABLE', /a lot of sign-ins right now/);
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('per-user limits on expensive routes', () => {
  const selfieForm = async () => {
    const form = new FormData();
    form.append('selfies', new Blob([new Uint8Array(await photo('jpeg', 512))], { type: 'image/jpeg' }), 's.jpg');
    return form;
  };

  it('should limit uploads per signed-in user, whatever the address, and say when to retry', async () => {
    const uma = await register('uma');
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push(
        (await call('/api/upload-selfies', { method: 'POST', cookie: uma, form: await selfieForm() })).status,
      );
    }
    expect(statuses).toEqual([201, 201, 429]);
    const refused = await call('/api/upload-selfies', { method: 'POST', cookie: uma, form: await selfieForm() });
    expectError(refused, 429, 'COMMON.RATE_LIMITED', /uploads/i);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not held back by uma's uploads.
    const ursula = await register('ursula');
    expect(
      (await call('/api/upload-selfies', { method: 'POST', cookie: ursula, form: await selfieForm() })).status,
    ).toBe(201);
  });

  it('should limit image conversions per signed-in user', async () => {
    const flo = await register('flo');
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push(
        (
          await call(`/api/image-formatter?url=${encodeURIComponent('/api/files/users/1/x.jpg')}&format=png`, {
            cookie: flo,
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
    expect(statuses[3]).toBe(429);
  });
});
