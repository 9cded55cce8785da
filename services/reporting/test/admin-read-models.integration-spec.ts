import { randomUUID } from 'node:crypto';
import { AdminRpc, AuthEvents, BillingEvents, GenerationEvents, TrainingEvents } from '@likeness/contracts';
import { waitFor, waitForInbox } from '@likeness/testing';
import { ADMIN as admin, type ReportingHarness, startReporting } from './reporting-harness.js';

describe('reporting admin read models', () => {
  let reporting: ReportingHarness;
  let db: ReportingHarness['db'];
  let events: ReportingHarness['events'];
  let client: ReportingHarness['client'];

  beforeAll(async () => {
    reporting = await startReporting('reporting-admin');
    ({ db, events, client } = reporting);
  });

  afterAll(async () => {
    await reporting?.close();
  });

  const handled = async (id: string) => waitForInbox(db, 'reporting', id);
  const register = async (userId: number, username = `user_${userId}`) =>
    handled(
      await events.publish(AuthEvents.UserRegistered, {
        userId,
        username,
        email: `${username}@example.com`,
        role: 'user',
        registeredAt: new Date().toISOString(),
      }),
    );
  const summary = () => client.rpc.call(AdminRpc.getSummary, {}, admin);

  it('should refuse a caller who is not the administrator and serve one who is', async () => {
    await expect(client.rpc.call(AdminRpc.getSummary, {})).rejects.toMatchObject({
      status: 403,
      code: 'AUTH.FORBIDDEN',
    });
    await expect(
      client.rpc.call(AdminRpc.listUsers, {}, { caller: { userId: 2, role: 'user' } }),
    ).rejects.toMatchObject({ status: 403, code: 'AUTH.FORBIDDEN' });
    await expect(summary()).resolves.toMatchObject({ totalUsers: 0 });
  });

  it('should apply each job event once, in any order, and count each transition once', async () => {
    await register(10);
    const jobId = randomUUID();
    const base = { jobId, userId: 10, holdReference: `generation:${jobId}` };
    // The completion first, twice, then the request twice.
    await handled(
      await events.publish(
        GenerationEvents.GenerationCompleted,
        { ...base, customModelId: 3, promptText: 'a cat', avatarIds: [1, 2] },
        { copies: 2 },
      ),
    );
    await handled(
      await events.publish(
        GenerationEvents.GenerationRequested,
        { ...base, customModelId: 3, promptText: 'a cat', numOutputs: 2 },
        { copies: 2 },
      ),
    );
    const failedId = randomUUID();
    const failedBase = { jobId: failedId, userId: 10, holdReference: `generation:${failedId}` };
    await handled(
      await events.publish(GenerationEvents.GenerationRequested, {
        ...failedBase,
        customModelId: 3,
        promptText: 'a dog',
        numOutputs: 1,
      }),
    );
    await handled(
      await events.publish(GenerationEvents.GenerationFailed, { ...failedBase, reason: 'The model timed out' }),
    );

    const page = await client.rpc.call(AdminRpc.listGenerationJobs, { userId: 10 }, admin);
    expect(page.items).toEqual([
      expect.objectContaining({ id: failedId, status: 'failed', failureReason: 'The model timed out', numOutputs: 1 }),
      expect.objectContaining({
        id: jobId,
        status: 'completed',
        promptText: 'a cat',
        numOutputs: 2,
        failureReason: null,
      }),
    ]);
    expect(page.items[1]!.finishedAt).not.toBeNull();
    const totals = await summary();
    expect(totals.generations).toEqual({ completed: 1, failed: 1, inProgress: 0, failureRate: 0.5 });
    expect(totals.totalGenerations).toBe(2);
    const { days } = await client.rpc.call(AdminRpc.getTimeseries, { days: 30 }, admin);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toMatchObject({ signups: 1, generations: 2, failedJobs: 1 });
  });

  it('should keep payments, refunds and balances as billing tells them, revenue less refunds', async () => {
    await register(20);
    const paymentId = randomUUID();
    const payment = { paymentId, userId: 20, packageId: 'starter', credits: 50 };
    // The refund is heard of first; the payment later; then a repeat of the payment.
    await handled(
      await events.publish(BillingEvents.PaymentRefunded, {
        ...payment,
        kind: 'refund',
        amountCents: 200,
        status: 'succeeded',
        creditsTakenBack: 20,
        paymentAmountCents: 500,
      }),
    );
    const succeeded = {
      ...payment,
      provider: 'local' as const,
      providerPaymentId: `pi_${paymentId}`,
      amountCents: 500,
    };
    await handled(await events.publish(BillingEvents.PaymentSucceeded, succeeded, { copies: 2 }));
    await handled(
      await events.publish(BillingEvents.CreditsChanged, {
        userId: 20,
        delta: 30,
        balance: 30,
        available: 25,
        reason: 'purchase',
      }),
    );

    const { items } = await client.rpc.call(AdminRpc.listPayments, { userId: 20 }, admin);
    expect(items).toEqual([
      expect.objectContaining({ id: paymentId, amount: 500, refundedAmount: 200, status: 'succeeded', credits: 50 }),
    ]);
    expect(await client.rpc.call(AdminRpc.listPayments, { status: 'refunded', userId: 20 }, admin)).toEqual({
      items: [],
      nextCursor: null,
    });
    const totals = await summary();
    expect(totals).toMatchObject({ revenueCents: 300, revenue: 3, totalPayments: 1, creditsOutstanding: 30 });
    const detail = await client.rpc.call(AdminRpc.getUser, { userId: 20 }, admin);
    expect(detail.balance).toEqual({ balance: 30, available: 25 });
    expect(detail.user).toMatchObject({ id: 20, username: 'user_20', credits: 25 });
  });

  it('should record trainings with their failure reasons', async () => {
    await register(30);
    const base = { userId: 30, holdReference: 'training:1' };
    await handled(
      await events.publish(TrainingEvents.TrainingStarted, {
        ...base,
        modelId: 7,
        provider: 'local',
        trainingJobId: 't7',
      }),
    );
    await handled(await events.publish(TrainingEvents.TrainingFailed, { ...base, modelId: 7, reason: 'Too dark' }));
    await handled(
      await events.publish(TrainingEvents.TrainingStarted, {
        ...base,
        modelId: 7,
        provider: 'local',
        trainingJobId: 't7',
      }),
    );
    const detail = await client.rpc.call(AdminRpc.getUser, { userId: 30 }, admin);
    expect(detail.models).toEqual([
      expect.objectContaining({ id: 7, status: 'failed', failureReason: 'Too dark', modelName: null }),
    ]);
    expect((await summary()).trainings).toEqual({
      total: 1,
      completed: 0,
      failed: 1,
      inProgress: 0,
      failureRate: 1,
    });
  });

  it('should erase a deleted user from every table and the counters, and keep them out', async () => {
    await register(40, 'erasable');
    const jobId = randomUUID();
    await handled(
      await events.publish(GenerationEvents.GenerationRequested, {
        jobId,
        userId: 40,
        holdReference: `generation:${jobId}`,
        customModelId: 1,
        promptText: 'my secret prompt',
        numOutputs: 1,
      }),
    );
    const before = await summary();
    await handled(
      await events.publish(AuthEvents.UserDeleted, { userId: 40, deletedAt: new Date().toISOString() }, { copies: 2 }),
    );
    await handled(
      await events.publish(BillingEvents.CreditsChanged, {
        userId: 40,
        delta: 5,
        balance: 5,
        available: 5,
        reason: 'welcome',
      }),
    );
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM reporting.users WHERE id = 40) AS users,
              (SELECT count(*)::int FROM reporting.generation_jobs WHERE user_id = 40) AS jobs,
              (SELECT count(*)::int FROM reporting.credit_balances WHERE user_id = 40) AS balances,
              (SELECT count(*)::int FROM reporting.generation_jobs WHERE prompt_text LIKE '%secret%') AS prompts`,
    );
    expect(rows[0]).toEqual({ users: 0, jobs: 0, balances: 0, prompts: 0 });
    const after = await summary();
    expect(after.totalUsers).toBe(before.totalUsers - 1);
    expect(after.generations.inProgress).toBe(before.generations.inProgress - 1);
    await expect(client.rpc.call(AdminRpc.getUser, { userId: 40 }, admin)).rejects.toMatchObject({
      status: 404,
      code: 'COMMON.NOT_FOUND',
    });
  });

  it('should page users by cursor both ways, search them, and refuse a foreign cursor', async () => {
    for (let userId = 100; userId < 107; userId += 1) await register(userId, `pager${userId}`);
    const newest = [];
    let cursor: string | undefined;
    do {
      const page = await client.rpc.call(AdminRpc.listUsers, { q: 'pager', limit: 3, cursor }, admin);
      newest.push(...page.items.map((user) => user.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(newest).toEqual([106, 105, 104, 103, 102, 101, 100]);
    const oldest = await client.rpc.call(AdminRpc.listUsers, { q: 'pager', limit: 4, sort: 'oldest' }, admin);
    expect(oldest.items.map((user) => user.id)).toEqual([100, 101, 102, 103]);
    const next = await client.rpc.call(
      AdminRpc.listUsers,
      { q: 'pager', limit: 4, sort: 'oldest', cursor: oldest.nextCursor! },
      admin,
    );
    expect(next).toMatchObject({ nextCursor: null });
    expect(next.items.map((user) => user.id)).toEqual([104, 105, 106]);

    const byEmail = await client.rpc.call(AdminRpc.listUsers, { q: 'PAGER103@example' }, admin);
    expect(byEmail.items.map((user) => user.id)).toEqual([103]);
    const byId = await client.rpc.call(AdminRpc.listUsers, { q: '104' }, admin);
    expect(byId.items.map((user) => user.id)).toContain(104);

    // A cursor of another search, and one that is not ours at all.
    await expect(
      client.rpc.call(AdminRpc.listUsers, { q: 'other', cursor: oldest.nextCursor! }, admin),
    ).rejects.toMatchObject({ status: 400, code: 'COMMON.VALIDATION_FAILED' });
    await expect(
      client.rpc.call(AdminRpc.listUsers, { cursor: Buffer.from('[1,2,3]').toString('base64url') }, admin),
    ).rejects.toMatchObject({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: expect.stringMatching(/page link/),
    });
    await expect(client.rpc.call(AdminRpc.listGenerationJobs, { cursor: 'bm90LWpzb24' }, admin)).rejects.toMatchObject({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
    });
  });

  it('should count a burst of events once each when one transaction changes many rows, some twice', async () => {
    const before = await summary();
    const userIds = Array.from({ length: 60 }, (_, index) => 600 + index);
    const all = async (ids: Promise<string>[]) => {
      for (const id of new Set(await Promise.all(ids))) await handled(id);
    };
    await all(
      userIds.map((userId) =>
        events.publish(AuthEvents.UserRegistered, {
          userId,
          username: `burst_${userId}`,
          email: `burst_${userId}@example.com`,
          role: 'user',
          registeredAt: new Date().toISOString(),
        }),
      ),
    );
    const jobs = userIds.map((userId) => ({ jobId: randomUUID(), userId, holdReference: `generation:${userId}` }));
    await all(
      jobs.map((job) =>
        events.publish(GenerationEvents.GenerationRequested, {
          ...job,
          customModelId: 1,
          promptText: 'p',
          numOutputs: 1,
        }),
      ),
    );
    // Every account's balance changes twice in the burst, the newer change published first.
    const start = Date.now() - 60_000;
    await all([
      ...jobs.map((job, index) =>
        index % 2 === 0
          ? events.publish(GenerationEvents.GenerationCompleted, {
              ...job,
              customModelId: 1,
              promptText: 'p',
              avatarIds: [1],
            })
          : events.publish(GenerationEvents.GenerationFailed, { ...job, reason: 'The model timed out' }),
      ),
      ...userIds.flatMap((userId) => [
        events.publish(
          BillingEvents.CreditsChanged,
          { userId, delta: -5, balance: 5, available: 5, reason: 'usage' },
          { occurredAt: new Date(start + 1) },
        ),
        events.publish(
          BillingEvents.CreditsChanged,
          { userId, delta: 10, balance: 10, available: 10, reason: 'welcome' },
          { occurredAt: new Date(start) },
        ),
      ]),
    ]);

    const after = await summary();
    expect(after.totalUsers - before.totalUsers).toBe(60);
    expect(after.totalGenerations - before.totalGenerations).toBe(60);
    expect(after.generations.completed - before.generations.completed).toBe(30);
    expect(after.generations.failed - before.generations.failed).toBe(30);
    expect(after.generations.inProgress).toBe(before.generations.inProgress);
    expect(after.creditsOutstanding - before.creditsOutstanding).toBe(60 * 5);
    const detail = await client.rpc.call(AdminRpc.getUser, { userId: 601 }, admin);
    expect(detail.balance).toEqual({ balance: 5, available: 5 });
  });

  it('should expose how late events reach the read models', async () => {
    await waitFor(async () => (await summary()).lastEventAt !== null, { what: 'an event to be applied' });
    const port = (reporting.app.getHttpServer().address() as { port: number }).port;
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/likeness_read_model_lag_seconds_count\{type="auth.UserRegistered"\} [1-9]/);
  });
});
