import { randomUUID } from 'node:crypto';
import { AdminRpc, AuthEvents, BillingEvents } from '@likeness/contracts';
import { waitForInbox } from '@likeness/testing';
import { ADMIN as admin, type ReportingHarness, startReporting } from './reporting-harness.js';

describe("reporting's credit balances", () => {
  let reporting: ReportingHarness;
  let db: ReportingHarness['db'];
  let events: ReportingHarness['events'];
  let client: ReportingHarness['client'];

  beforeAll(async () => {
    reporting = await startReporting('reporting-balances');
    ({ db, events, client } = reporting);
  });

  afterAll(async () => {
    await reporting?.close();
  });

  it('should end with the newest balance when one account’s changes arrive scrambled and repeated', async () => {
    const userId = 50;
    await waitForInbox(
      db,
      'reporting',
      await events.publish(AuthEvents.UserRegistered, {
        userId,
        username: 'scrambled',
        email: 'scrambled@example.com',
        role: 'user',
        registeredAt: new Date().toISOString(),
      }),
    );
    // Billing's changes in commit order: a grant, usage, a hold in between (available only moves
    // with the next change), another grant, usage. Each carries its balance after the change.
    const start = Date.now() - 60_000;
    const changes = [
      { delta: 100, balance: 100, available: 100, reason: 'welcome' },
      { delta: -10, balance: 90, available: 90, reason: 'usage' },
      { delta: 500, balance: 590, available: 570, reason: 'purchase' },
      { delta: -20, balance: 570, available: 570, reason: 'usage' },
      { delta: -70, balance: 500, available: 480, reason: 'usage' },
      { delta: 25, balance: 525, available: 505, reason: 'adjustment' },
    ].map((change, index) => ({
      id: randomUUID(),
      occurredAt: new Date(start + index),
      payload: { userId, ...change },
    }));
    // The newest first, older ones after it, some twice (a redelivery) or again under the same id.
    const order = [5, 2, 0, 4, 2, 1, 3, 5, 0];
    const ids: string[] = [];
    for (const [position, index] of order.entries()) {
      const change = changes[index]!;
      ids.push(
        await events.publish(BillingEvents.CreditsChanged, change.payload, {
          id: change.id,
          occurredAt: change.occurredAt,
          copies: position % 3 === 0 ? 2 : 1,
        }),
      );
    }
    for (const id of new Set(ids)) await waitForInbox(db, 'reporting', id);

    const detail = await client.rpc.call(AdminRpc.getUser, { userId }, admin);
    expect(detail.balance).toEqual({ balance: 525, available: 505 });
    expect(await client.rpc.call(AdminRpc.getSummary, {}, admin)).toMatchObject({ creditsOutstanding: 525 });
  });

  it('should keep the newest balance of each of many accounts whose changes interleave', async () => {
    const users = [61, 62, 63];
    const published: string[] = [];
    for (const userId of users) {
      published.push(
        await events.publish(AuthEvents.UserRegistered, {
          userId,
          username: `many_${userId}`,
          email: `many_${userId}@example.com`,
          role: 'user',
          registeredAt: new Date().toISOString(),
        }),
      );
    }
    const start = Date.now() - 30_000;
    // Each account's balance climbs by its id with every change; newest last in time.
    const all = users.flatMap((userId) =>
      Array.from({ length: 8 }, (_, step) => ({
        occurredAt: new Date(start + step * 3),
        payload: { userId, delta: userId, balance: userId * (step + 1), available: userId * (step + 1), reason: 'x' },
      })),
    );
    // Published newest first: every older change arrives after the one that replaced it.
    for (const change of all.reverse()) {
      published.push(
        await events.publish(BillingEvents.CreditsChanged, change.payload, { occurredAt: change.occurredAt }),
      );
    }
    for (const id of published) await waitForInbox(db, 'reporting', id);

    for (const userId of users) {
      const detail = await client.rpc.call(AdminRpc.getUser, { userId }, admin);
      expect(detail.balance).toEqual({ balance: userId * 8, available: userId * 8 });
    }
    expect(await client.rpc.call(AdminRpc.getSummary, {}, admin)).toMatchObject({
      creditsOutstanding: 525 + (61 + 62 + 63) * 8,
    });
  });
});
