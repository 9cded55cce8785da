import { type JobPayload, defineJob } from '@likeness/contracts';
import {
  type JobContext,
  JobHandler,
  type JobProcessor,
  OutboxService,
  isJobQueued,
  namespacedStream,
} from '@likeness/nest-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Injectable } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { type TestServiceEnvironment, waitFor } from '../src/index.js';
import { createKitEnvironment, startKitApp } from './kit-app.js';

const lanedJob = defineJob({
  queue: 'kit',
  name: 'laned',
  version: 1,
  payload: z.object({ name: z.string() }),
  key: ({ name }) => name,
  lanes: { names: ['priority'], standardShare: 5 },
});

/** The jobs in the order one worker slot ran them. */
const ran: string[] = [];

@Injectable()
@JobHandler(lanedJob, { concurrency: 1, ackWaitMs: 5_000, maxAttempts: 3 })
class LanedProcessor implements JobProcessor<typeof lanedJob> {
  async run({ name }: JobPayload<typeof lanedJob>, _context: JobContext): Promise<void> {
    ran.push(name);
  }

  async giveUp(): Promise<void> {}
}

@Injectable()
class Enqueuer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  enqueue(names: string[], lane?: string): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      for (const name of names) await this.outbox.enqueue(manager, lanedJob, { name }, { lane });
    });
  }
}

const named = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`);

describe('job lanes (JobLanes)', () => {
  let env: TestServiceEnvironment;
  const apps: NestFastifyApplication[] = [];

  const queuedMessages = async () => {
    const nc = await connect({ servers: env.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      return (await jsm.streams.info(namespacedStream({ namespace: env.namespace }, 'JOBS'))).state.messages;
    } catch {
      return 0;
    } finally {
      await nc.close();
    }
  };

  beforeAll(async () => {
    env = await createKitEnvironment('lanes');
  });

  beforeEach(() => {
    ran.length = 0;
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await env?.database.drop();
  });

  it('should drain the priority lane first and still give the standard lane one pull in five', async () => {
    // The backlog is queued before any worker runs, so the order is the workers' choice alone.
    const producer = await startKitApp(env, [Enqueuer]);
    apps.push(producer);
    const standard = named('s', 20);
    const priority = named('p', 8);
    await producer.get(Enqueuer).enqueue(standard);
    await producer.get(Enqueuer).enqueue(priority, 'priority');
    await waitFor(async () => (await queuedMessages()) === 28, { what: 'the backlog on the queue' });

    apps.push(await startKitApp(env, [LanedProcessor]));
    await waitFor(async () => ran.length === 28, { what: 'every job run', timeoutMs: 60_000 });

    expect([...ran].sort()).toEqual([...standard, ...priority].sort());
    // While both lanes had work, four pulls in five went to priority and the fifth to standard.
    const firstTen = ran.slice(0, 10);
    // (The outbox relays a transaction's messages concurrently, so a lane's own order is not asserted.)
    expect(firstTen.filter((name) => name.startsWith('p')).sort()).toEqual([...priority].sort());
    expect(firstTen.filter((name) => name.startsWith('s'))).toHaveLength(2);
    for (let start = 0; start + 5 <= 10; start += 1) {
      expect(firstTen.slice(start, start + 5).some((name) => name.startsWith('s'))).toBe(true);
    }
  });

  it('should take work from either lane when the queue was idle, and know a priority job is queued', async () => {
    const app = await startKitApp(env, [Enqueuer, LanedProcessor]);
    apps.push(app);
    await app.get(Enqueuer).enqueue(['late-standard']);
    await waitFor(async () => ran.includes('late-standard'), { what: 'the standard job run' });
    await app.get(Enqueuer).enqueue(['late-priority'], 'priority');
    await waitFor(async () => ran.includes('late-priority'), { what: 'the priority job run' });

    await app.close();
    apps.splice(apps.indexOf(app), 1);
    const producer = await startKitApp(env, [Enqueuer]);
    apps.push(producer);
    await producer.get(Enqueuer).enqueue(['waiting'], 'priority');
    const nc = await connect({ servers: env.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      const settings = { url: env.natsUrl, namespace: env.namespace, name: 'test' };
      await waitFor(async () => isJobQueued(jsm, settings, lanedJob, 'waiting'), { what: 'the priority job queued' });
      expect(await isJobQueued(jsm, settings, lanedJob, 'late-priority')).toBe(false);
    } finally {
      await nc.close();
    }
  });

  it('should refuse a lane the job does not have', () => {
    expect(() => defineJob({ ...lanedJob, name: 'bad', lanes: { names: ['Fast lane'], standardShare: 5 } })).toThrow(
      'Lanes of kit.bad',
    );
  });
});
