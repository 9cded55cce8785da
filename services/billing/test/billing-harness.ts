import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import {
  type TestEventPublisher,
  connectEventPublisher,
  createTestRpcClient,
  createTestServiceEnvironment,
} from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { type BillingConfig, billingConfigSchema } from '../src/billing.config.js';
import { billingService } from '../src/billing.service-definition.js';

export interface BillingUnderTest {
  app: NestFastifyApplication;
  env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  config: BillingConfig;
  db: pg.Pool;
  /** A typed RPC client in billing's namespace, as other services call it. */
  rpc: Awaited<ReturnType<typeof createTestRpcClient>>['rpc'];
  /** Publishes events billing consumes, as their services' relays would. */
  events: TestEventPublisher;
  close(): Promise<void>;
}

/** Billing in process on a fresh database (local payments unless Stripe settings are given). */
export async function startBilling(label: string, extraEnv: Record<string, string> = {}): Promise<BillingUnderTest> {
  const env = await createTestServiceEnvironment(label);
  const config = loadConfig(billingConfigSchema, { ...env.env, ...extraEnv });
  await runMigrations(billingService.database(config));
  const app = await createServiceApp(billingService, config);
  const db = new pg.Pool({ connectionString: env.database.url, max: 4 });
  const client = await createTestRpcClient(env.natsUrl, env.namespace);
  const events = await connectEventPublisher(env.natsUrl, env.namespace);
  return {
    app,
    env,
    config,
    db,
    rpc: client.rpc,
    events,
    close: async () => {
      await events.close();
      await client.close();
      await db.end();
      await app.close();
      await env.database.drop();
    },
  };
}

/**
 * The ledger's invariants: every movement balances (all entries sum to zero) and every
 * account's balance is the sum of its entries, with no more held than owned.
 */
export async function expectLedgerConserved(db: pg.Pool): Promise<void> {
  const total = await db.query<{ sum: string | null }>(`SELECT sum(amount) AS sum FROM billing.ledger_entries`);
  expect(Number(total.rows[0]?.sum ?? 0)).toBe(0);
  const mismatches = await db.query(
    `SELECT a.user_id, a.balance, coalesce(sum(e.amount), 0) AS entries
     FROM billing.accounts a LEFT JOIN billing.ledger_entries e ON e.account = 'user:' || a.user_id
     GROUP BY a.user_id, a.balance HAVING a.balance <> coalesce(sum(e.amount), 0)`,
  );
  expect(mismatches.rows).toEqual([]);
  const heldMismatches = await db.query(
    `SELECT a.user_id FROM billing.accounts a
     LEFT JOIN billing.holds h ON h.user_id = a.user_id AND h.status = 'held'
     GROUP BY a.user_id, a.held HAVING a.held <> coalesce(sum(h.amount), 0)`,
  );
  expect(heldMismatches.rows).toEqual([]);
}

/** Gives a user `credits` through the ledger, as a payment would. */
export async function fund(billing: BillingUnderTest, userId: number, credits: number, key: string): Promise<void> {
  const { CreditLedger } = await import('../src/ledger/credit-ledger.js');
  const { DataSource } = await import('typeorm');
  const ledger = billing.app.get(CreditLedger);
  await billing.app.get(DataSource).transaction(async (manager) => {
    await ledger.open(manager, userId);
    await ledger.post(manager, { userId, amount: credits, reason: 'purchase', key, counterAccount: 'system:sales' });
  });
}
