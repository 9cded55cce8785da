import { randomUUID } from 'node:crypto';
import {
  BillingRpc,
  type EventDefinition,
  type EventPayload,
  TRAINING_COST,
  TrainingEvents,
} from '@likeness/contracts';
import { waitForInbox } from '@likeness/testing';
import { type BillingUnderTest, expectLedgerConserved, fund, startBilling } from './billing-harness.js';

describe('the training saga in billing', () => {
  let billing: BillingUnderTest;
  let nextUser = 700;

  beforeAll(async () => {
    billing = await startBilling('training-holds');
  });

  afterEach(async () => {
    await expectLedgerConserved(billing.db);
  });

  afterAll(async () => {
    await billing?.close();
  });

  /** Publishes one event, `copies` times under different message ids (as redeliveries do). */
  const publish = <E extends EventDefinition>(event: E, payload: EventPayload<E>, copies = 1) =>
    billing.events.publish(event, payload, { copies });

  const handled = (eventId: string) => waitForInbox(billing.db, 'billing', eventId);

  async function heldTraining() {
    const userId = (nextUser += 1);
    await fund(billing, userId, 50, `test:fund-${userId}`);
    const holdReference = `training:${randomUUID()}`;
    await billing.rpc.call(BillingRpc.reserveCredits, { userId, amount: TRAINING_COST, reference: holdReference });
    const base = { modelId: userId, userId, holdReference };
    return { userId, holdReference, base };
  }

  const completed = (base: { modelId: number; userId: number; holdReference: string }) => ({
    ...base,
    modelName: 'My model',
    triggerWord: 'ohwx',
    provider: 'local' as const,
    version: `local:${base.modelId}`,
    imageKeys: [],
  });

  it('should charge the hold of a completed training exactly once, however often the event comes', async () => {
    const { userId, holdReference, base } = await heldTraining();
    const first = await publish(TrainingEvents.TrainingCompleted, completed(base), 3);
    const second = await publish(TrainingEvents.TrainingCompleted, completed(base));
    await handled(first);
    await handled(second);
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toEqual({
      userId,
      balance: 50 - TRAINING_COST,
      held: 0,
      available: 50 - TRAINING_COST,
    });
    const { rows } = await billing.db.query(
      `SELECT account, amount FROM billing.ledger_entries WHERE idempotency_key = $1 ORDER BY account`,
      [`capture:${holdReference}`],
    );
    expect(rows).toEqual([
      { account: 'system:usage', amount: TRAINING_COST },
      { account: `user:${userId}`, amount: -TRAINING_COST },
    ]);
  });

  it('should give the hold of a failed training back, and not charge it when a completion comes later', async () => {
    const { userId, holdReference, base } = await heldTraining();
    await handled(await publish(TrainingEvents.TrainingFailed, { ...base, reason: 'It failed.' }, 2));
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toMatchObject({
      balance: 50,
      held: 0,
      available: 50,
    });
    // Cannot happen (a model moves once), but if it did the released hold stays released.
    await handled(await publish(TrainingEvents.TrainingCompleted, completed(base)));
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toMatchObject({ balance: 50, held: 0 });
    const hold = await billing.db.query(`SELECT status FROM billing.holds WHERE reference = $1`, [holdReference]);
    expect(hold.rows).toEqual([{ status: 'released' }]);
  });

  it('should take a failed training that never held credits in its stride', async () => {
    const userId = (nextUser += 1);
    await fund(billing, userId, 50, `test:fund-${userId}`);
    const eventId = await publish(TrainingEvents.TrainingFailed, {
      modelId: 1,
      userId,
      holdReference: `training:${randomUUID()}`,
      reason: 'The training could not be started.',
    });
    await handled(eventId);
    await expect(billing.rpc.call(BillingRpc.getBalance, { userId })).resolves.toMatchObject({ balance: 50, held: 0 });
  });
});
