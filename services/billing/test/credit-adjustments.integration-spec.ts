import { randomUUID } from 'node:crypto';
import {
  ADJUSTMENT_TOO_LARGE_MESSAGE,
  ADMIN_ONLY_MESSAGE,
  AdminRpc,
  AuthEvents,
  BillingRpc,
} from '@likeness/contracts';
import { waitForInbox } from '@likeness/testing';
import { type BillingUnderTest, expectLedgerConserved, fund, startBilling } from './billing-harness.js';

const ADMIN = { userId: 1, role: 'admin' } as const;

describe("an administrator's credit adjustment in billing", () => {
  let billing: BillingUnderTest;
  let nextUser = 900;

  beforeAll(async () => {
    billing = await startBilling('credit-adjustments');
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await billing?.close();
  });

  const newUser = async (credits: number) => {
    const userId = (nextUser += 1);
    await fund(billing, userId, credits, `test:fund-${userId}`);
    return userId;
  };
  const adjust = (
    request: { userId: number; delta: number; reason?: string; requestId?: string },
    /** null: the envelope names nobody. */
    caller: { userId: number; role: 'user' | 'admin' } | null = ADMIN,
  ) =>
    billing.rpc.call(
      AdminRpc.adjustCredits,
      { reason: 'Goodwill for a failed job', requestId: randomUUID(), ...request },
      caller ? { caller } : {},
    );
  const balanceOf = (userId: number) => billing.rpc.call(BillingRpc.getBalance, { userId });
  const historyOf = async (userId: number) =>
    (await billing.rpc.call(BillingRpc.getCreditHistory, { userId, page: 1, pageSize: 50 })).entries;
  const creditsChanged = async (userId: number) =>
    (
      await billing.db.query<{ payload: unknown }>(
        `SELECT envelope->'payload' AS payload FROM billing.outbox
         WHERE subject = 'events.billing.CreditsChanged.v1' AND (envelope->'payload'->>'userId')::int = $1
         ORDER BY created_at`,
        [userId],
      )
    ).rows.map((row) => row.payload);

  it('should grant credits once per requestId, naming the administrator and the reason, and tell the user why', async () => {
    const userId = await newUser(10);
    const requestId = randomUUID();
    const request = { userId, delta: 25, reason: 'Sorry about the outage', requestId };

    const first = await adjust(request, { userId: 7, role: 'admin' });
    const retried = await adjust(request, { userId: 7, role: 'admin' });

    expect(first).toEqual({ userId, delta: 25, balance: 35, available: 35 });
    expect(retried).toEqual(first);
    await expect(balanceOf(userId)).resolves.toMatchObject({ balance: 35, available: 35 });
    const recorded = await billing.db.query(
      `SELECT user_id, delta, reason, admin_id FROM billing.credit_adjustments WHERE request_id = $1`,
      [requestId],
    );
    expect(recorded.rows).toEqual([{ user_id: userId, delta: 25, reason: 'Sorry about the outage', admin_id: 7 }]);
    const entries = await billing.db.query(
      `SELECT account, amount, reason FROM billing.ledger_entries WHERE idempotency_key = $1 ORDER BY account`,
      [`adjustment:${requestId}`],
    );
    expect(entries.rows).toEqual([
      { account: 'system:adjustments', amount: -25, reason: 'adjustment' },
      { account: `user:${userId}`, amount: 25, reason: 'adjustment' },
    ]);
    expect(await creditsChanged(userId)).toEqual([
      { userId, delta: 10, balance: 10, available: 10, reason: 'purchase' },
      { userId, delta: 25, balance: 35, available: 35, reason: 'adjustment' },
    ]);
    const adjustments = (await historyOf(userId)).filter((entry) => entry.kind === 'adjustment');
    expect(adjustments.map(({ credits, description }) => ({ credits, description }))).toEqual([
      { credits: 25, description: 'Credits added by support: Sorry about the outage' },
    ]);
  });

  it('should move credits once when the same request arrives many times at once', async () => {
    const userId = await newUser(10);
    const request = { userId, delta: -4, reason: 'Duplicate purchase refunded by hand', requestId: randomUUID() };

    const answers = await Promise.all(Array.from({ length: 8 }, () => adjust(request)));

    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({ userId, delta: -4, balance: 6, available: 6 });
    await expect(balanceOf(userId)).resolves.toMatchObject({ balance: 6, available: 6 });
    const adjustments = (await historyOf(userId)).filter((entry) => entry.kind === 'adjustment');
    expect(adjustments.map(({ credits, description }) => ({ credits, description }))).toEqual([
      { credits: -4, description: 'Credits removed by support: Duplicate purchase refunded by hand' },
    ]);
    expect(
      (await creditsChanged(userId)).filter((event) => (event as { reason: string }).reason === 'adjustment'),
    ).toHaveLength(1);
  });

  it('should refuse a deduction past what the user can spend (held credits included), and move nothing', async () => {
    const userId = await newUser(20);
    await billing.rpc.call(BillingRpc.reserveCredits, { userId, amount: 15, reference: `generation:${randomUUID()}` });
    const requestId = randomUUID();

    await expect(adjust({ userId, delta: -6, requestId })).rejects.toMatchObject({
      status: 402,
      code: 'BILLING.INSUFFICIENT_CREDITS',
      message: ADJUSTMENT_TOO_LARGE_MESSAGE,
    });
    await expect(balanceOf(userId)).resolves.toMatchObject({ balance: 20, held: 15, available: 5 });
    expect((await historyOf(userId)).filter((entry) => entry.kind === 'adjustment')).toEqual([]);

    // Refused, the request id is not spent: the same one goes through once the user can afford it.
    await expect(adjust({ userId, delta: -5, requestId })).resolves.toEqual({
      userId,
      delta: -5,
      balance: 15,
      available: 0,
    });
  });

  it('should refuse a requestId used before for a different adjustment', async () => {
    const userId = await newUser(10);
    const other = await newUser(10);
    const requestId = randomUUID();
    await adjust({ userId, delta: 5, requestId });

    for (const changed of [
      { userId: other, delta: 5, requestId },
      { userId, delta: 6, requestId },
      { userId, delta: 5, reason: 'Another reason', requestId },
    ]) {
      await expect(adjust(changed)).rejects.toMatchObject({ status: 400, code: 'COMMON.VALIDATION_FAILED' });
    }
    await expect(balanceOf(userId)).resolves.toMatchObject({ balance: 15 });
    await expect(balanceOf(other)).resolves.toMatchObject({ balance: 10 });
  });

  it('should refuse an account that does not exist or was closed, with 404', async () => {
    const closed = await newUser(10);
    const eventId = await billing.events.publish(AuthEvents.UserDeleted, {
      userId: closed,
      deletedAt: new Date().toISOString(),
    });
    await waitForInbox(billing.db, 'billing', eventId);

    for (const userId of [closed, 99_999]) {
      for (const delta of [5, -5]) {
        await expect(adjust({ userId, delta })).rejects.toMatchObject({ status: 404, code: 'COMMON.NOT_FOUND' });
      }
    }
    await expect(balanceOf(closed)).resolves.toMatchObject({ balance: 10 });
    await expect(balanceOf(99_999)).resolves.toMatchObject({ balance: 0 });
    const accounts = await billing.db.query(`SELECT 1 FROM billing.accounts WHERE user_id = 99999`);
    expect(accounts.rows).toEqual([]);
  });

  it('should refuse a caller who is not an administrator, or none, with 403, and move nothing', async () => {
    const userId = await newUser(10);
    const requestId = randomUUID();
    for (const caller of [null, { userId, role: 'user' as const }, { userId: 1, role: 'user' as const }]) {
      await expect(adjust({ userId, delta: 50, requestId }, caller)).rejects.toMatchObject({
        status: 403,
        code: 'AUTH.FORBIDDEN',
        message: ADMIN_ONLY_MESSAGE,
      });
    }
    await expect(balanceOf(userId)).resolves.toMatchObject({ balance: 10 });
    const recorded = await billing.db.query(`SELECT 1 FROM billing.credit_adjustments WHERE request_id = $1`, [
      requestId,
    ]);
    expect(recorded.rows).toEqual([]);
  });
});
