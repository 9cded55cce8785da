import { AuthEvents } from '@likeness/contracts';
import { createServiceApp, loadConfig, namespaced, runMigrations } from '@likeness/nest-kit';
import { createTestServiceEnvironment, waitFor } from '@likeness/testing';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { reportingService } from '../src/reporting.service-definition.js';

describe('reporting users read model', () => {
  it('should keep one row per registered user, whatever the deliveries', async () => {
    const env = await createTestServiceEnvironment('reporting-users');
    const config = loadConfig(reportingService.configSchema, env.env);
    await runMigrations(reportingService.database(config));
    const app: NestFastifyApplication = await createServiceApp(reportingService, config);
    const db = new pg.Client({ connectionString: env.database.url });
    await db.connect();
    const nc = await connect({ servers: env.natsUrl });
    try {
      const envelope = (id: string, userId: number, username: string) =>
        JSON.stringify({
          id,
          type: 'auth.UserRegistered',
          version: 1,
          occurredAt: '2026-11-21T10:00:00.000Z',
          payload: {
            userId,
            username,
            email: `${username}@example.com`,
            role: userId === 1 ? 'admin' : 'user',
            registeredAt: '2026-11-21T10:00:00.000Z',
          },
        });
      const subject = namespaced({ namespace: env.namespace }, AuthEvents.UserRegistered.subject);
      const js = jetstream(nc);
      await js.publish(subject, envelope('0b7e6c5a-1f1e-4f43-9c55-1d2a3b4c5d01', 1, 'ada'));
      // The same event again, as after a redelivery past the duplicate window.
      await js.publish(subject, envelope('0b7e6c5a-1f1e-4f43-9c55-1d2a3b4c5d01', 1, 'ada'), { msgID: 'again' });
      await js.publish(subject, envelope('0b7e6c5a-1f1e-4f43-9c55-1d2a3b4c5d02', 2, 'alan'));

      await waitFor(async () => (await db.query(`SELECT count(*) AS n FROM reporting.inbox`)).rows[0].n === '2', {
        what: 'both events to be handled',
      });
      const { rows } = await db.query(`SELECT id, username, email, role FROM reporting.users ORDER BY id`);
      expect(rows).toEqual([
        { id: 1, username: 'ada', email: 'ada@example.com', role: 'admin' },
        { id: 2, username: 'alan', email: 'alan@example.com', role: 'user' },
      ]);
    } finally {
      await nc.close();
      await db.end();
      await app.close();
      await env.database.drop();
    }
  });
});
