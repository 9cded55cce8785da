import { randomUUID } from 'node:crypto';
import { BillingRpc, type CreditHistoryEntry, LOCAL_TEST_CARDS } from '@likeness/contracts';
import { createTestRpcClient } from '@likeness/testing';
import { type BillingUnderTest, expectLedgerConserved, startBilling } from './billing-harness.js';

describe('the credit history', () => {
  let billing: BillingUnderTest;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;
  const rpc = () => client.rpc;

  beforeAll(async () => {
    billing = await startBilling('credit-history');
    client = await createTestRpcClient(billing.env.natsUrl, billing.env.namespace);
  });

  afterAll(async () => {
    await client?.close();
    await billing?.close();
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  async function buy(userId: number, packageId: string): Promise<void> {
    const { paymentIntentId } = await rpc().call(BillingRpc.createPaymentIntent, { userId, packageId });
    await rpc().call(BillingRpc.confirmLocalPayment, { userId, paymentIntentId, cardNumber: LOCAL_TEST_CARDS.success });
    await rpc().call(BillingRpc.confirmPayment, { userId, paymentIntentId });
  }

  const history = (userId: number, page = 1, pageSize = 20) =>
    rpc().call(BillingRpc.getCreditHistory, { userId, page, pageSize });

  it("should list a user's welcome credits, purchase, holds and their capture or release, newest first", async () => {
    await rpc().call(BillingRpc.openAccount, { userId: 41 });
    await buy(41, 'creator');
    const training = 'training:7';
    const generation = `generation:${randomUUID()}`;
    await rpc().call(BillingRpc.reserveCredits, { userId: 41, amount: 30, reference: training });
    await rpc().call(BillingRpc.captureCredits, { reference: training });
    await rpc().call(BillingRpc.reserveCredits, { userId: 41, amount: 5, reference: generation });
    await rpc().call(BillingRpc.releaseCredits, { reference: generation });
    const running = `generation:${randomUUID()}`;
    await rpc().call(BillingRpc.reserveCredits, { userId: 41, amount: 5, reference: running });
    // Someone else's money never shows.
    await rpc().call(BillingRpc.openAccount, { userId: 42 });
    await rpc().call(BillingRpc.reserveCredits, { userId: 42, amount: 5, reference: `generation:${randomUUID()}` });

    const { entries, total, page, pageSize } = await history(41);

    expect({ total, page, pageSize }).toEqual({ total: 7, page: 1, pageSize: 20 });
    const lines = entries.map(({ kind, credits, reference, holdStatus, description }: CreditHistoryEntry) => ({
      kind,
      credits,
      reference,
      holdStatus,
      description,
    }));
    expect(lines).toEqual([
      {
        kind: 'hold',
        credits: -5,
        reference: running,
        holdStatus: 'held',
        description: 'Avatar generation: credits held while it runs',
      },
      {
        kind: 'release',
        credits: 5,
        reference: generation,
        holdStatus: null,
        description: 'Avatar generation: held credits returned (not charged)',
      },
      {
        kind: 'hold',
        credits: -5,
        reference: generation,
        holdStatus: 'released',
        description: 'Avatar generation: credits held while it runs',
      },
      {
        kind: 'capture',
        credits: 0,
        reference: training,
        holdStatus: null,
        description: 'Model training: held credits charged',
      },
      {
        kind: 'hold',
        credits: -30,
        reference: training,
        holdStatus: 'captured',
        description: 'Model training: credits held while it runs',
      },
      {
        kind: 'purchase',
        credits: 125,
        reference: null,
        holdStatus: null,
        description: 'Creator Pack purchased',
      },
      { kind: 'welcome', credits: 5, reference: null, holdStatus: null, description: 'Welcome credits' },
    ]);
    expect(entries.find((entry) => entry.kind === 'purchase')?.amountCents).toBe(1100);
    // The lines add up to what the user can spend.
    const { available } = await rpc().call(BillingRpc.getBalance, { userId: 41 });
    expect(entries.reduce((sum, entry) => sum + entry.credits, 0)).toBe(available);
    // Newest first, every line once.
    const times = entries.map((entry) => Date.parse(entry.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
  });

  it('should page through the history without losing or repeating a line', async () => {
    const all = (await history(41)).entries.map((entry) => entry.id);
    const pages = [await history(41, 1, 3), await history(41, 2, 3), await history(41, 3, 3)];
    expect(pages.map((result) => result.entries.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((result) => result.entries.map((entry) => entry.id))).toEqual(all);
    expect(pages.every((result) => result.total === 7)).toBe(true);
    await expect(history(41, 9, 3)).resolves.toEqual({ entries: [], page: 9, pageSize: 3, total: 7 });
  });

  it('should answer an empty history for a user with no account', async () => {
    await expect(history(4_040)).resolves.toEqual({ entries: [], page: 1, pageSize: 20, total: 0 });
  });

  it('should refuse a page size the contract does not allow', async () => {
    await expect(rpc().call(BillingRpc.getCreditHistory, { userId: 41, page: 1, pageSize: 500 })).rejects.toMatchObject(
      { code: 'COMMON.VALIDATION_FAILED' },
    );
  });
});
