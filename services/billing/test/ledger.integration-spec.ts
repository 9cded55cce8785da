import { AuthEvents, BillingRpc } from '@likeness/contracts';
import { namespaced } from '@likeness/nest-kit';
import { createTestRpcClient, waitFor } from '@likeness/testing';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { HoldsService } from '../src/ledger/holds.service.js';
import { type BillingUnderTest, expectLedgerConserved, fund, startBilling } from './billing-harness.js';

const SPENDERS = 64;
const ATTEMPTS = 50;
const PRICE = 5;
/** 64 spenders share 32 connections: they still race, and PostgreSQL's connection limit holds. */
const POOL = 32;

/** 64 spenders × 50 attempts on one account; returns how many spends were accepted. */
async function spendConcurrently(spend: (spender: number, attempt: number) => Promise<boolean>): Promise<number> {
  const results = await Promise.all(
    Array.from({ length: SPENDERS }, async (_, spender) => {
      let accepted = 0;
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) if (await spend(spender, attempt)) accepted += 1;
      return accepted;
    }),
  );
  return results.reduce((sum, accepted) => sum + accepted, 0);
}

describe('the credit ledger under concurrency', () => {
  let billing: BillingUnderTest;
  let rpc: Awaited<ReturnType<typeof createTestRpcClient>>;

  beforeAll(async () => {
    billing = await startBilling('ledger', { DATABASE_POOL_SIZE: String(POOL) });
    rpc = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace, 30_000);
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await rpc?.close();
    await billing?.close();
  });

  it('should accept exactly 200 spends of 5 from 1,000 credits and leave 0, however many spenders race', async () => {
    await fund(billing, 101, 1000, 'test:fund-101');
    const holds = billing.app.get(HoldsService);
    const accepted = await spendConcurrently(async (spender, attempt) => {
      const reference = `generation:s${spender}a${attempt}`;
      try {
        await holds.reserve({ userId: 101, amount: PRICE, reference });
      } catch (error) {
        expect((error as { code?: string }).code).toBe('BILLING.INSUFFICIENT_CREDITS');
        return false;
      }
      await holds.capture(reference);
      return true;
    });
    expect(accepted).toBe(200);
    await expect(rpc.rpc.call(BillingRpc.getBalance, { userId: 101 })).resolves.toEqual({
      userId: 101,
      balance: 0,
      held: 0,
      available: 0,
    });
  });

  it('should show that a naive read-then-write spend overdraws the same account (why the ledger does not)', async () => {
    // Deliberately wrong, kept to prove the test above would catch it: read, check, write back.
    await fund(billing, 102, 1000, 'test:fund-102');
    const pool = new pg.Pool({ connectionString: billing.env.database.url, max: POOL });
    try {
      const accepted = await spendConcurrently(async () => {
        const { rows } = await pool.query<{ balance: number }>(
          `SELECT balance FROM billing.accounts WHERE user_id = 102`,
        );
        const balance = rows[0]!.balance;
        if (balance < PRICE) return false;
        await pool.query(`UPDATE billing.accounts SET balance = $1 WHERE user_id = 102`, [balance - PRICE]);
        return true;
      });
      expect(accepted).toBeGreaterThan(200);
    } finally {
      // Put the account back as the ledger says it is, so conservation still holds.
      await pool.query(`UPDATE billing.accounts SET balance = 1000 WHERE user_id = 102`);
      await pool.end();
    }
  });

  it('should refuse a hold larger than the available balance with a clear message', async () => {
    await fund(billing, 103, 12, 'test:fund-103');
    await expect(
      rpc.rpc.call(BillingRpc.reserveCredits, { userId: 103, amount: 10, reference: 'training:a' }),
    ).resolves.toMatchObject({
      status: 'held',
      available: 2,
    });
    await expect(
      rpc.rpc.call(BillingRpc.reserveCredits, { userId: 103, amount: 5, reference: 'generation:b' }),
    ).rejects.toMatchObject({
      code: 'BILLING.INSUFFICIENT_CREDITS',
      status: 402,
      message: 'Insufficient credits: this needs 5 credits and you have 2 available. Please purchase more credits.',
    });
    await rpc.rpc.call(BillingRpc.releaseCredits, { reference: 'training:a' });
  });
});

describe('holds', () => {
  let billing: BillingUnderTest;
  let rpc: Awaited<ReturnType<typeof createTestRpcClient>>;

  beforeAll(async () => {
    billing = await startBilling('holds');
    rpc = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace);
    await fund(billing, 7, 100, 'test:fund-7');
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await rpc?.close();
    await billing?.close();
  });

  const balance = () => rpc.rpc.call(BillingRpc.getBalance, { userId: 7 });

  it('should hold once per reference, and capture once however often and in whatever order it is asked', async () => {
    const reserve = () =>
      rpc.rpc.call(BillingRpc.reserveCredits, { userId: 7, amount: 30, reference: 'training:model-1' });
    await Promise.all([reserve(), reserve(), reserve()]);
    await expect(balance()).resolves.toMatchObject({ balance: 100, held: 30, available: 70 });

    const outcomes = await Promise.allSettled([
      rpc.rpc.call(BillingRpc.captureCredits, { reference: 'training:model-1' }),
      rpc.rpc.call(BillingRpc.captureCredits, { reference: 'training:model-1' }),
      rpc.rpc.call(BillingRpc.releaseCredits, { reference: 'training:model-1' }),
      rpc.rpc.call(BillingRpc.captureCredits, { reference: 'training:model-1' }),
    ]);
    const resolved = await balance();
    // Either the capture won (charged once) or the release did (not charged, captures refused).
    if (resolved.balance === 70) {
      expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    } else {
      expect(resolved.balance).toBe(100);
    }
    expect(resolved.held).toBe(0);
    const { rows } = await billing.db.query(
      `SELECT count(*)::int AS n FROM billing.ledger_entries WHERE idempotency_key = 'capture:training:model-1'`,
    );
    expect(rows[0].n).toBe(resolved.balance === 70 ? 2 : 0);
  });

  it('should refuse to charge a released hold, and keep a captured one captured', async () => {
    await rpc.rpc.call(BillingRpc.reserveCredits, { userId: 7, amount: 5, reference: 'generation:job-2' });
    await expect(rpc.rpc.call(BillingRpc.releaseCredits, { reference: 'generation:job-2' })).resolves.toEqual({
      reference: 'generation:job-2',
      status: 'released',
    });
    await expect(rpc.rpc.call(BillingRpc.captureCredits, { reference: 'generation:job-2' })).rejects.toMatchObject({
      code: 'BILLING.HOLD_RELEASED',
    });

    await rpc.rpc.call(BillingRpc.reserveCredits, { userId: 7, amount: 5, reference: 'generation:job-3' });
    await rpc.rpc.call(BillingRpc.captureCredits, { reference: 'generation:job-3' });
    await expect(rpc.rpc.call(BillingRpc.releaseCredits, { reference: 'generation:job-3' })).resolves.toEqual({
      reference: 'generation:job-3',
      status: 'captured',
    });
    await expect(rpc.rpc.call(BillingRpc.captureCredits, { reference: 'generation:unknown' })).rejects.toMatchObject({
      code: 'BILLING.HOLD_NOT_FOUND',
    });
  });

  it('should release holds nobody resolved in time', async () => {
    const before = await balance();
    await rpc.rpc.call(BillingRpc.reserveCredits, {
      userId: 7,
      amount: 5,
      reference: 'generation:stuck',
      expiresInSeconds: 1,
    });
    await expect(balance()).resolves.toMatchObject({ available: before.available - 5 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(billing.app.get(HoldsService).releaseExpired()).resolves.toBe(1);
    await expect(balance()).resolves.toEqual(before);
    await expect(rpc.rpc.call(BillingRpc.captureCredits, { reference: 'generation:stuck' })).rejects.toMatchObject({
      code: 'BILLING.HOLD_RELEASED',
    });
  });
});

describe('welcome credits', () => {
  it('should open an account with 5 credits once, whether the RPC or UserRegistered (twice) comes first', async () => {
    const billing = await startBilling('welcome');
    const rpc = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace);
    const nc = await connect({ servers: billing.env.natsUrl });
    try {
      const event = (id: string) =>
        JSON.stringify({
          id,
          type: 'auth.UserRegistered',
          version: 1,
          occurredAt: new Date().toISOString(),
          payload: {
            userId: 42,
            username: 'newcomer',
            email: 'new@example.com',
            role: 'user',
            registeredAt: new Date().toISOString(),
          },
        });
      const subject = namespaced({ namespace: billing.env.namespace }, AuthEvents.UserRegistered.subject);
      await Promise.all([
        rpc.rpc.call(BillingRpc.openAccount, { userId: 42 }),
        jetstream(nc).publish(subject, event('2f1b0c7e-7d6a-4e55-9a43-6b1f0c2d3e01'), { msgID: 'a' }),
        jetstream(nc).publish(subject, event('2f1b0c7e-7d6a-4e55-9a43-6b1f0c2d3e01'), { msgID: 'b' }),
        rpc.rpc.call(BillingRpc.openAccount, { userId: 42 }),
      ]);
      await waitFor(
        async () => (await billing.db.query(`SELECT count(*)::int AS n FROM billing.inbox`)).rows[0].n === 1,
        { what: 'the event to be handled' },
      );
      await expect(rpc.rpc.call(BillingRpc.getBalance, { userId: 42 })).resolves.toEqual({
        userId: 42,
        balance: 5,
        held: 0,
        available: 5,
      });
      const { rows } = await billing.db.query(
        `SELECT account, amount, reason FROM billing.ledger_entries ORDER BY account`,
      );
      expect(rows).toEqual([
        { account: 'system:promotions', amount: -5, reason: 'welcome' },
        { account: 'user:42', amount: 5, reason: 'welcome' },
      ]);
      await expectLedgerConserved(billing.db);
    } finally {
      await nc.close();
      await rpc.close();
      await billing.close();
    }
  });
});
