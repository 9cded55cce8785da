import { Periodic } from '@likeness/nest-kit';
import { Inject, Injectable, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { type TestServiceEnvironment, waitFor } from '../src/index.js';
import { createKitEnvironment, startKitApp } from './kit-app.js';

interface Run {
  task: string;
  app: string;
  startedAt: number;
  endedAt?: number;
}
const runs: Run[] = [];
const REPLICA = Symbol('REPLICA');
/** Failures still to come, per replica. */
const failing = new Map<string, number>();

function tasks(): Type {
  @Injectable()
  class Tasks {
    constructor(@Inject(REPLICA) private readonly replica: string) {}

    /** Slower than its interval, and locked: one replica at a time. */
    @Periodic({ everyMs: 50, lock: 'kit-test.locked' })
    async locked(): Promise<void> {
      await this.record('locked', 150);
    }

    @Periodic({ everyMs: 100 })
    async flaky(): Promise<void> {
      await this.record('flaky', 0);
      const left = failing.get(this.replica) ?? 0;
      if (left > 0) {
        failing.set(this.replica, left - 1);
        throw new Error('not today');
      }
    }

    @Periodic({ everyMs: 50 })
    async slow(): Promise<void> {
      await this.record('slow', 400);
    }

    private async record(task: string, ms: number): Promise<void> {
      const run: Run = { task, app: this.replica, startedAt: Date.now() };
      runs.push(run);
      await sleep(ms);
      run.endedAt = Date.now();
    }
  }
  return Tasks;
}

const overlapping = (list: Run[]) =>
  list.some((run) =>
    list.some(
      (other) => other !== run && other.startedAt < (run.endedAt ?? Infinity) && other.startedAt >= run.startedAt,
    ),
  );

describe('periodic tasks (Periodic)', () => {
  let env: TestServiceEnvironment;
  let apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    env = await createKitEnvironment('periodic');
    apps = await Promise.all(
      ['one', 'two'].map((replica) => startKitApp(env, [{ provide: REPLICA, useValue: replica }, tasks()])),
    );
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await env?.database.drop();
  });

  it('should run a locked task on one replica at a time', async () => {
    await waitFor(async () => runs.filter((run) => run.task === 'locked' && run.endedAt).length >= 8, {
      timeoutMs: 15_000,
      what: 'eight runs of the locked task',
    });
    const locked = runs.filter((run) => run.task === 'locked' && run.endedAt);
    expect(overlapping(locked)).toBe(false);
  });

  it('should never overlap runs of a task in one process', async () => {
    await waitFor(
      async () => runs.filter((run) => run.task === 'slow' && run.app === 'one' && run.endedAt).length >= 3,
      {
        timeoutMs: 15_000,
        what: 'three runs of the slow task',
      },
    );
    expect(overlapping(runs.filter((run) => run.task === 'slow' && run.app === 'one'))).toBe(false);
  });

  it('should pause longer after each failure and go back to its interval once it works', async () => {
    const since = Date.now();
    failing.set('one', 3);
    await waitFor(async () => failing.get('one') === 0, { timeoutMs: 20_000, what: 'the failures' });
    await sleep(1_000);
    const own = runs.filter((run) => run.task === 'flaky' && run.app === 'one' && run.startedAt >= since);
    const gaps = own.slice(1).map((run, index) => run.startedAt - own[index]!.endedAt!);
    // Every interval 100 ms, then 200, 400 and 800 ms after failures, then 100 ms again (timers
    // run late on a loaded machine, never early: the last gap is compared with the longest).
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(350);
    expect(gaps.at(-1)).toBeLessThan(Math.max(...gaps) / 2);
  });

  it('should wait for a run under way on shutdown and start no more', async () => {
    const app = apps.pop()!;
    await app.close();
    const closedAt = Date.now();
    const mine = runs.filter((run) => run.app === 'two');
    expect(mine.every((run) => run.endedAt !== undefined && run.endedAt <= closedAt)).toBe(true);
    await sleep(500);
    expect(runs.filter((run) => run.app === 'two').length).toBe(mine.length);
  });
});
