import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import {
  type TestEventPublisher,
  connectEventPublisher,
  createTestRpcClient,
  createTestServiceEnvironment,
} from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { reportingService } from '../src/reporting.service-definition.js';

/** The RPC envelope of the administrator (user 1), whom the admin RPCs require. */
export const ADMIN = { caller: { userId: 1, role: 'admin' as const } };

/** The reporting service on its own database and namespace, with a publisher of real events and an RPC client. */
export interface ReportingHarness {
  app: NestFastifyApplication;
  db: pg.Pool;
  events: TestEventPublisher;
  client: Awaited<ReturnType<typeof createTestRpcClient>>;
  close(): Promise<void>;
}

export async function startReporting(name: string): Promise<ReportingHarness> {
  const env = await createTestServiceEnvironment(name);
  const config = loadConfig(reportingService.configSchema, env.env);
  await runMigrations(reportingService.database(config));
  const app = await createServiceApp(reportingService, config);
  const db = new pg.Pool({ connectionString: env.database.url, max: 2 });
  const events = await connectEventPublisher(env.natsUrl, env.namespace);
  const client = await createTestRpcClient(env.natsUrl, env.namespace, 10_000);
  return {
    app,
    db,
    events,
    client,
    async close() {
      await client.close();
      await events.close();
      await db.end();
      await app.close();
      await env.database.drop();
    },
  };
}
