import { AuthEvents } from '@likeness/contracts';
import { createServiceApp, loadConfig, runMigrations } from '@likeness/nest-kit';
import {
  type TestEventPublisher,
  connectEventPublisher,
  createTestServiceEnvironment,
  waitForInbox,
} from '@likeness/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { reportingService } from '../src/reporting.service-definition.js';

describe('a deleted user in reporting', () => {
  let env: Awaited<ReturnType<typeof createTestServiceEnvironment>>;
  let app: NestFastifyApplication;
  let db: pg.Pool;
  let events: TestEventPublisher;

  beforeAll(async () => {
    env = await createTestServiceEnvironment('reporting-deleted');
    const config = loadConfig(reportingService.configSchema, env.env);
    await runMigrations(reportingService.database(config));
    app = await createServiceApp(reportingService, config);
    db = new pg.Pool({ connectionString: env.database.url, max: 2 });
    events = await connectEventPublisher(env.natsUrl, env.namespace);
  });

  afterAll(async () => {
    await events?.close();
    await db?.end();
    await app?.close();
    await env?.database.drop();
  });

  const registered = async (userId: number) => {
    const id = await events.publish(AuthEvents.UserRegistered, {
      userId,
      username: `user_${userId}`,
      email: `user_${userId}@example.com`,
      role: 'user',
      registeredAt: '2026-11-21T10:00:00.000Z',
    });
    await waitForInbox(db, 'reporting', id);
  };

  const deleted = async (userId: number, copies = 1) => {
    const id = await events.publish(
      AuthEvents.UserDeleted,
      { userId, deletedAt: new Date().toISOString() },
      { copies },
    );
    await waitForInbox(db, 'reporting', id);
  };

  const reported = async () => (await db.query(`SELECT id, username, email FROM reporting.users ORDER BY id`)).rows;

  it('should drop the user from the read model and keep everyone else, however often the event comes', async () => {
    await registered(11);
    await registered(12);
    await deleted(11, 2);
    await deleted(11);
    expect(await reported()).toEqual([{ id: 12, username: 'user_12', email: 'user_12@example.com' }]);
  });

  it('should not bring the user back when the registration is heard of after the deletion', async () => {
    await deleted(21);
    await registered(21);
    expect((await reported()).map((user) => user.id)).not.toContain(21);
  });
});
