import { randomUUID } from 'node:crypto';
import {
  ADJUSTMENT_TOO_LARGE_MESSAGE,
  ADMIN_ONLY_MESSAGE,
  type CreditHistoryResponse,
  WELCOME_CREDITS,
  httpRoutes,
} from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { type Session, apiClient, cookiesFrom } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

const ADMIN = { username: 'root_admin', email: 'root@example.com', password: 'Start-pass-42' };
const CAUGHT = 'Please log in to continue.';

type Api = ReturnType<typeof apiClient>;

/** One valid request of each admin route (the user in the path is filled in). */
const adminRequests = (userId: number) =>
  ({
    'GET /api/admin/summary': { path: '/api/admin/summary' },
    'GET /api/admin/timeseries': { path: '/api/admin/timeseries?days=30' },
    'GET /api/admin/users': { path: '/api/admin/users?limit=10' },
    'GET /api/admin/users/{id}': { path: `/api/admin/users/${userId}` },
    'POST /api/admin/users/{id}/credits': {
      path: `/api/admin/users/${userId}/credits`,
      body: { delta: 50, reason: 'Free credits please', requestId: randomUUID() },
    },
    'GET /api/admin/payments': { path: '/api/admin/payments' },
    'GET /api/admin/generation-jobs': { path: '/api/admin/generation-jobs' },
    'POST /api/admin/change-password': {
      path: '/api/admin/change-password',
      body: { currentPassword: 'secret-password', newPassword: 'Fresh-Pass-2049', confirmPassword: 'Fresh-Pass-2049' },
    },
  }) as Record<string, { path: string; body?: unknown }>;

async function login(api: Api, username: string, password: string): Promise<Session> {
  const result = await api.call('/api/login', { method: 'POST', body: { username, password } });
  expect(result.status).toBe(200);
  return { cookie: cookiesFrom(result.headers) };
}

describe('the admin API through the running stack', () => {
  let stack: RunningStack;
  let api: Api;
  let admin: Session;
  let member: Session;
  let memberId: number;

  beforeAll(async () => {
    stack = await startTestStack({
      TRUST_PROXY: '1',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // Every refusal below counts against the administrator's password-change limit.
      PASSWORD_CHANGE_LIMIT_PER_USER: '30',
    });
    api = apiClient(stack.url, '198.51.100');
    admin = await login(api, ADMIN.username, ADMIN.password);
    member = await api.register('mia_member');
    const me = await api.call('/api/user', { session: member });
    memberId = me.json.id as number;
    // The account billing opens when it hears of the registration.
    await waitFor(async () => (await api.credits(member)) === WELCOME_CREDITS, { what: "mia's welcome credits" });
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  const send = (route: string, session?: Session, userId = memberId) => {
    const request = adminRequests(userId)[route]!;
    return api.call(request.path, {
      method: route.split(' ')[0]!,
      ...(session ? { session } : {}),
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  };
  const adjust = (userId: number, body: unknown, session: Session = admin) =>
    api.call(`/api/admin/users/${userId}/credits`, { method: 'POST', session, body });
  const adjustments = async (session: Session) =>
    ((await api.call('/api/credit-history?pageSize=100', { session })).json as CreditHistoryResponse).entries
      .filter((entry) => entry.kind === 'adjustment')
      .map(({ credits, description }) => ({ credits, description }));

  it('should sign the configured administrator in with the admin role', async () => {
    const me = await api.call('/api/user', { session: admin });
    expect(me.json).toMatchObject({ username: ADMIN.username, role: 'admin' });
  });

  it('should list every admin route of the contracts here', () => {
    const contracts = httpRoutes
      .filter((route) => route.tag === 'admin')
      .map((route) => `${route.method} ${route.path}`);
    expect(Object.keys(adminRequests(1)).sort()).toEqual(contracts.sort());
    expect(contracts).toHaveLength(8);
  });

  it.each(Object.keys(adminRequests(1)))('should answer %s with 401 to a visitor', async (route) => {
    expectError(await send(route), 401, 'AUTH.UNAUTHENTICATED', CAUGHT);
  });

  it.each(Object.keys(adminRequests(1)))(
    'should answer %s with 403 and the admin-only message to a signed-in user',
    async (route) => {
      expectError(await send(route, member), 403, 'AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE);
    },
  );

  it('should move no credit and change no password for a user who calls the admin routes', async () => {
    for (const route of ['POST /api/admin/users/{id}/credits', 'POST /api/admin/change-password']) {
      expectError(await send(route, member), 403, 'AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE);
    }
    // Even spoiled input gets the same refusal: the guard answers before anything is read.
    expectError(await api.call('/api/admin/users?limit=0', { session: member }), 403, 'AUTH.FORBIDDEN');
    expectError(await adjust(memberId, { delta: 0 }, member), 403, 'AUTH.FORBIDDEN');
    expect(await api.credits(member)).toBe(WELCOME_CREDITS);
    expect(await adjustments(member)).toEqual([]);
    await login(api, 'mia_member', 'secret-password');
  });

  it.each(
    (
      [
        ['/api/admin/users?limit=0', 'limit must be a whole number from 1 to 100'],
        ['/api/admin/users?limit=1000', 'limit must be a whole number from 1 to 100'],
        ['/api/admin/users?limit=ten', 'limit must be a whole number from 1 to 100'],
        ['/api/admin/users?limit=1&limit=2', 'limit must be a whole number from 1 to 100'],
        [
          '/api/admin/users?cursor=not%20a%20cursor!',
          'That page link is not valid any more. Start again from the first page.',
        ],
        [
          `/api/admin/users?cursor=${'a'.repeat(300)}`,
          'That page link is not valid any more. Start again from the first page.',
        ],
        [`/api/admin/users?q=${'x'.repeat(200)}`, 'Search text must be at most 100 characters'],
        ['/api/admin/users?sort=sideways', 'sort must be newest or oldest'],
        ['/api/admin/users/abc', 'The user id must be a whole number from 1.'],
        ['/api/admin/users/0', 'The user id must be a whole number from 1.'],
        ['/api/admin/users/1.5', 'The user id must be a whole number from 1.'],
        ['/api/admin/users/99999999999', 'The user id must be a whole number from 1.'],
        ['/api/admin/payments?status=lost', 'status must be succeeded, refunded or disputed'],
        ['/api/admin/payments?userId=abc', 'userId must be a user id (a whole number from 1)'],
        ['/api/admin/payments?limit=0', 'limit must be a whole number from 1 to 100'],
        ['/api/admin/generation-jobs?status=done', 'status must be pending, completed or failed'],
        ['/api/admin/generation-jobs?userId=-1', 'userId must be a user id (a whole number from 1)'],
        [`/api/admin/generation-jobs?q=${'y'.repeat(200)}`, 'Search text must be at most 100 characters'],
        ['/api/admin/timeseries?days=7', 'days must be 30 or 90'],
      ] satisfies [string, string][]
    ).map(([path, message]) => [
      path.length > 80 ? `${path.slice(0, 50)}… (${path.length} characters)` : path,
      path,
      message,
    ]),
  )('should refuse GET %s from the administrator with 400', async (_name, path, message) => {
    expectError(await api.call(path, { session: admin }), 400, 'COMMON.VALIDATION_FAILED', message);
  });

  it.each([
    ['a delta of 0', { delta: 0, reason: 'Nothing', requestId: randomUUID() }, /whole number of credits .* not 0/],
    ['a delta past the limit', { delta: 1_000_000, reason: 'Lots', requestId: randomUUID() }, /not 0/],
    ['a delta in quotes', { delta: '5', reason: 'Lots', requestId: randomUUID() }, /not 0/],
    ['a fractional delta', { delta: 1.5, reason: 'Half', requestId: randomUUID() }, /not 0/],
    ['no reason', { delta: 5, requestId: randomUUID() }, 'A reason is required'],
    ['a blank reason', { delta: 5, reason: '   ', requestId: randomUUID() }, 'Reason must be at least 3 characters'],
    ['a reason too long', { delta: 5, reason: 'r'.repeat(201), requestId: randomUUID() }, /at most 200 characters/],
    ['no requestId', { delta: 5, reason: 'Goodwill' }, 'requestId must be a UUID'],
  ])('should refuse an adjustment with %s with 400 and move nothing', async (_name, body, message) => {
    expectError(await adjust(memberId, body), 400, 'COMMON.VALIDATION_FAILED', message);
    expect(await api.credits(member)).toBe(WELCOME_CREDITS);
  });

  it('should refuse an adjustment of a user with a non-numeric id, or one who does not exist', async () => {
    const body = { delta: 5, reason: 'Goodwill', requestId: randomUUID() };
    expectError(
      await api.call('/api/admin/users/abc/credits', { method: 'POST', session: admin, body }),
      400,
      'COMMON.VALIDATION_FAILED',
      'The user id must be a whole number from 1.',
    );
    expectError(await adjust(memberId, []), 400, 'COMMON.VALIDATION_FAILED', 'The request body must be a JSON object.');
    expectError(await adjust(424_242, body), 404, 'COMMON.NOT_FOUND');
    expect(await api.credits(member)).toBe(WELCOME_CREDITS);
  });

  it("should adjust a user's credits once, even when the same request arrives twice at once, and show it in their history", async () => {
    const request = { delta: 20, reason: 'Sorry about the failed training', requestId: randomUUID() };

    const [first, second] = await Promise.all([adjust(memberId, request), adjust(memberId, request)]);
    const again = await adjust(memberId, request);

    const expected = { userId: memberId, delta: 20, balance: 25, available: 25 };
    for (const answer of [first, second, again]) {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual(expected);
    }
    expect(await api.credits(member)).toBe(25);
    expect(await adjustments(member)).toEqual([
      { credits: 20, description: 'Credits added by support: Sorry about the failed training' },
    ]);

    // A deduction past what the user has is refused; one within it goes through.
    expectError(
      await adjust(memberId, { delta: -26, reason: 'Taking back', requestId: randomUUID() }),
      402,
      'BILLING.INSUFFICIENT_CREDITS',
      ADJUSTMENT_TOO_LARGE_MESSAGE,
    );
    const deducted = await adjust(memberId, { delta: -5, reason: 'Duplicate grant', requestId: randomUUID() });
    expect(deducted.json).toEqual({ userId: memberId, delta: -5, balance: 20, available: 20 });
    expect(await api.credits(member)).toBe(20);
    expect(await adjustments(member)).toEqual([
      { credits: -5, description: 'Credits removed by support: Duplicate grant' },
      { credits: 20, description: 'Credits added by support: Sorry about the failed training' },
    ]);
    // Only their own: the administrator's history has none of it.
    expect(await adjustments(admin)).toEqual([]);
  });

  it("should change the administrator's password under the admin rules, and only with a valid one", async () => {
    const change = (body: Record<string, unknown>) =>
      api.call('/api/admin/change-password', { method: 'POST', session: admin, body });
    const current = ADMIN.password;
    const refusals: [Record<string, unknown>, string | RegExp][] = [
      [{ newPassword: 'Short-1a', confirmPassword: 'Short-1a' }, 'Password must be at least 12 characters'],
      [{ newPassword: 'all-lower-case-1', confirmPassword: 'all-lower-case-1' }, /uppercase letter/],
      [{ newPassword: 'No-Digits-Here', confirmPassword: 'No-Digits-Here' }, /one number/],
      [{ newPassword: 'NoSpecial12345', confirmPassword: 'NoSpecial12345' }, /special character/],
      [
        { newPassword: 'My-Password-2049', confirmPassword: 'My-Password-2049' },
        'Password contains common weak patterns',
      ],
      [
        { newPassword: 'Super-Admin-2049', confirmPassword: 'Super-Admin-2049' },
        'Password contains common weak patterns',
      ],
      [{ newPassword: 'Qwerty-Keys-77', confirmPassword: 'Qwerty-Keys-77' }, 'Password contains common weak patterns'],
      [
        { newPassword: 'Aa1!Aa1!-123456', confirmPassword: 'Aa1!Aa1!-123456' },
        'Password contains common weak patterns',
      ],
      [{ newPassword: 'Fresh-Pass-2049', confirmPassword: 'Fresh-Pass-2048' }, "Passwords don't match"],
      [{ newPassword: 'Fresh-Pass-2049' }, "Passwords don't match"],
    ];
    for (const [body, message] of refusals) {
      expectError(await change({ currentPassword: current, ...body }), 400, 'COMMON.VALIDATION_FAILED', message);
    }
    const wrong = await change({
      currentPassword: 'not-the-password',
      newPassword: 'Fresh-Pass-2049',
      confirmPassword: 'Fresh-Pass-2049',
    });
    expectError(wrong, 403, 'AUTH.WRONG_PASSWORD', 'Current password is incorrect');

    const changed = await change({
      currentPassword: current,
      newPassword: 'Fresh-Pass-2049',
      confirmPassword: 'Fresh-Pass-2049',
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({ message: expect.any(String) });

    expectError(
      await api.call('/api/login', { method: 'POST', body: { username: ADMIN.username, password: current } }),
      401,
      'AUTH.INVALID_CREDENTIALS',
    );
    const fresh = await login(api, ADMIN.username, 'Fresh-Pass-2049');
    expect((await api.call('/api/user', { session: fresh })).json).toMatchObject({ role: 'admin' });
    // The session that changed it stays signed in, and still reaches the admin API.
    expect((await adjust(memberId, { delta: 1, reason: 'Still here', requestId: randomUUID() })).status).toBe(200);
  });
});
