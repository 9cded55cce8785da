import { pingRpc } from '@likeness/contracts';
import {
  type ServiceConfig,
  type ServiceDefinition,
  createServiceApp,
  loadConfig,
  pendingSchemaChanges,
  runMigrations,
} from '@likeness/nest-kit';
import { createTestRpcClient, createTestServiceEnvironment } from './service-harness.js';

/**
 * What every service must do, whatever else it does: migrate (twice is a no-op), match its
 * entities with no unwritten migration, start, answer ping over NATS, and report health and
 * metrics on its HTTP port. Each service's own test calls this with its definition.
 */
export function describeServiceBasics<C extends ServiceConfig>(definition: ServiceDefinition<C>): void {
  describe(`${definition.service} service basics`, () => {
    it('should migrate, match its entities, start, answer ping and report healthy', async () => {
      const env = await createTestServiceEnvironment(definition.service);
      const config = loadConfig(definition.configSchema, env.env);
      try {
        expect((await runMigrations(definition.database(config))).length).toBeGreaterThan(0);
        await expect(runMigrations(definition.database(config))).resolves.toEqual([]);
        await expect(pendingSchemaChanges(definition.database(config))).resolves.toEqual([]);

        const app = await createServiceApp(definition, config);
        const client = await createTestRpcClient(env.natsUrl, env.namespace);
        try {
          await expect(client.rpc.call(pingRpc(definition.service), {})).resolves.toMatchObject({
            service: definition.service,
            database: 'up',
          });
          const url = await app.getUrl();
          const health = await fetch(`${url}/health`);
          expect(health.status).toBe(200);
          // The database and NATS, and whatever else the service declares (media: its storage), all up.
          const report = (await health.json()) as { status: string; checks: Record<string, string> };
          expect(report).toEqual({ status: 'ok', checks: expect.objectContaining({ database: 'up', nats: 'up' }) });
          expect(new Set(Object.values(report.checks))).toEqual(new Set(['up']));
          expect((await fetch(`${url}/health/live`)).status).toBe(200);
          const metrics = await (await fetch(`${url}/metrics`)).text();
          expect(metrics).toContain('likeness_rpc_handler_seconds_count');
          expect(metrics).toContain('process_cpu_seconds_total');
        } finally {
          await client.close();
          await app.close();
        }
      } finally {
        await env.database.drop();
      }
    });
  });
}
