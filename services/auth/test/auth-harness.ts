import { randomUUID } from 'node:crypto';
import { AuthJobs, AuthRpc, type EventDefinition, type EventPayload, JOBS_STREAM } from '@likeness/contracts';
import { createServiceApp, loadConfig, namespaced, namespacedStream, runMigrations } from '@likeness/nest-kit';
import { createTestRpcClient, createTestServiceEnvironment, waitFor } from '@likeness/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { authService } from '../src/auth.service-definition.js';

export const PUBLIC_URL = 'https://likeness.example';

/** Auth in process on its own database and namespace (mail to links on PUBLIC_URL), with `extra` settings. */
export async function startAuth(label: string, extra: Record<string, string> = {}) {
  const env = await createTestServiceEnvironment(label);
  const config = loadConfig(authService.configSchema, { ...env.env, PUBLIC_URL, ...extra });
  await runMigrations(authService.database(config));
  const app: NestFastifyApplication = await createServiceApp(authService, config);
  const client = await createTestRpcClient(env.natsUrl, env.namespace);
  const db = new pg.Client({ connectionString: env.database.url });
  await db.connect();

  /** Publishes an event envelope as its service's relay would, `copies` times under different message ids. */
  const publish = async <E extends EventDefinition>(
    event: E,
    payload: EventPayload<E>,
    { copies = 1, id = randomUUID() as string, occurredAt = new Date() } = {},
  ): Promise<string> => {
    const envelope = JSON.stringify({
      id,
      type: `${event.service}.${event.name}`,
      version: event.version,
      occurredAt: occurredAt.toISOString(),
      payload,
    });
    for (let copy = 0; copy < copies; copy += 1) {
      await jetstream(client.connection).publish(namespaced({ namespace: env.namespace }, event.subject), envelope, {
        msgID: `${id}-${copy}-${Date.now()}`,
      });
    }
    return id;
  };

  /** Waits until every copy of the event was handled and every mail job settled. */
  const settled = async (eventId?: string) => {
    if (eventId) {
      await waitFor(
        async () => (await db.query(`SELECT 1 FROM auth.inbox WHERE event_id = $1`, [eventId])).rows.length > 0,
        { what: `event ${eventId} to be handled` },
      );
    }
    const jsm = await jetstreamManager(client.connection);
    await waitFor(
      async () => {
        const stream = namespacedStream({ namespace: env.namespace }, JOBS_STREAM);
        const infos = await Promise.all(
          [AuthJobs.sendAccountMail, AuthJobs.sendPasswordResetMail].map((job) =>
            jsm.consumers.info(stream, job.consumer),
          ),
        );
        const outbox = await db.query(`SELECT 1 FROM auth.outbox WHERE published_at IS NULL`);
        return outbox.rows.length === 0 && infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0);
      },
      { what: 'mail jobs to settle', timeoutMs: 15_000 },
    );
  };

  return {
    env,
    client,
    db,
    publish,
    settled,
    register: (username: string, password = 'secret-password') =>
      client.rpc.call(AuthRpc.register, { username, email: `${username}@example.com`, password }),
    close: async () => {
      await db.end();
      await client.close();
      await app.close();
      await env.database.drop();
    },
  };
}

export type AuthUnderTest = Awaited<ReturnType<typeof startAuth>>;
