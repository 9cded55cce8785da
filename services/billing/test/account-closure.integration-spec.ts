import { randomUUID } from 'node:crypto';
import { AuthEvents, BillingRpc } from '@likeness/contracts';
import { waitForInbox } from '@likeness/testing';
import { type BillingUnderTest, expectLedgerConserved, fund, startBilling } from './billing-harness.js';

describe('the account of a deleted user in billing', () => {
  let billing: BillingUnderTest;
  let nextUser = 800;

  beforeAll(async () => {
    billing = await startBilling('account-closure');
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await billing?.close();
  });

  const reserve = (userId: number, amount: number, reference = `generation:${randomUUID()}`) =>
    billing.rpc.call(BillingRpc.reserveCredits, { userId, amount, reference });

  const deleted = async (userId: number, copies = 1) => {
    const eventId = await billing.events.publish(
      AuthEvents.UserDeleted,
      { userId, deletedAt: new Date().toISOString() },
      { copies },
    );
    await waitForInbox(billing.db, 'billing', eventId);
  };

  const entriesOf = async (userId: number) =>
    (
      await billing.db.query(
        `SELECT amount, reason, idempotency_key FROM billing.ledger_entries WHERE account = $1 ORDER BY id`,
        [`user:${userId}`],
      )
    ).rows;

  it('should release every open hold once, keep what was charged and every entry, and hold nothing more', async () => {
    const userId = (nextUser += 1);
    const bystander = (nextUser += 1);
    await fund(billing, userId, 100, `test:fund-${userId}`);
    await fund(billing, bystander, 100, `test:fund-${bystander}`);
    const charged = await reserve(userId, 5);
    await billing.rpc.call(BillingRpc.captureCredits, { reference: charged.reference });
    const training = await reserve(userId, 30, `training:${randomUUID()}`);
    const queued = await reserve(userId, 5);
    const othersHold = await reserve(bystander, 30);
    const entriesBefore = await entriesOf(userId);

    await deleted(userId, 2);
    await deleted(userId);

    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toEqual({
      userId,
      balance: 95,
      held: 0,
      available: 95,
    });
    const holds = await billing.db.query(`SELECT reference, status FROM billing.holds WHERE user_id = $1`, [userId]);
    expect(Object.fromEntries(holds.rows.map((hold) => [hold.reference, hold.status]))).toEqual({
      [charged.reference]: 'captured',
      [training.reference]: 'released',
      [queued.reference]: 'released',
    });
    // Accounting keeps every entry; releasing a hold writes none.
    expect(await entriesOf(userId)).toEqual(entriesBefore);
    // A capture that comes after (a job that finished as the account went) cannot charge a released hold.
    await expect(billing.rpc.call(BillingRpc.captureCredits, { reference: queued.reference })).rejects.toMatchObject({
      code: 'BILLING.HOLD_RELEASED',
    });
    // Nothing new is held on a closed account.
    await expect(reserve(userId, 5)).rejects.toMatchObject({ code: 'BILLING.INSUFFICIENT_CREDITS' });

    // The other person's hold and balance are untouched.
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId: bystander })).resolves.toMatchObject({
      balance: 100,
      held: 30,
    });
    const others = await billing.db.query(`SELECT status FROM billing.holds WHERE reference = $1`, [
      othersHold.reference,
    ]);
    expect(others.rows).toEqual([{ status: 'held' }]);
  });

  it('should give no welcome credits when the registration is heard of after the deletion', async () => {
    const userId = (nextUser += 1);
    await deleted(userId);
    const registered = await billing.events.publish(AuthEvents.UserRegistered, {
      userId,
      username: `late_${userId}`,
      email: `late_${userId}@example.com`,
      role: 'user',
      registeredAt: new Date().toISOString(),
    });
    await waitForInbox(billing.db, 'billing', registered);
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toMatchObject({ balance: 0, held: 0 });
    expect(await entriesOf(userId)).toEqual([]);
  });
});
