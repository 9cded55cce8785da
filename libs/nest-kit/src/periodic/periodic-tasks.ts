import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { discoverMethods } from '../bootstrap/discover-methods.js';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { periodicMetrics } from '../health/metrics.js';
import { FailureStreak } from '../resilience/backoff.js';
import { PERIODIC_METADATA, type PeriodicMetadata, type PeriodicOptions } from './periodic.decorator.js';

/** After failures the pause grows up to this many times `everyMs`. */
const MAX_SLOWDOWN = 16;

interface Task {
  name: string;
  options: PeriodicOptions;
  run: (signal: AbortSignal) => Promise<unknown>;
  streak: FailureStreak;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/** Runs every `@Periodic` method of the app; see the decorator. */
@Injectable()
export class PeriodicTasks implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PeriodicTasks.name);
  private readonly tasks: Task[] = [];
  private readonly shutdown = new AbortController();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: ServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    const methods = discoverMethods<PeriodicMetadata>(this.discovery, this.scanner, this.reflector, PERIODIC_METADATA);
    for (const { name, metadata, call } of methods) {
      const options =
        typeof metadata.options === 'function' ? metadata.options(this.config as never) : metadata.options;
      const task: Task = {
        name,
        options,
        run: (signal) => call(signal) as Promise<unknown>,
        streak: new FailureStreak({ initialMs: options.everyMs * 2, maxMs: options.everyMs * MAX_SLOWDOWN }),
      };
      this.tasks.push(task);
      this.schedule(task, options.everyMs);
    }
  }

  /** Stops the timers and lets the runs under way finish. */
  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort();
    for (const task of this.tasks) clearTimeout(task.timer);
    await Promise.all(this.tasks.map((task) => task.running));
  }

  private schedule(task: Task, delayMs: number): void {
    if (this.shutdown.signal.aborted) return;
    task.timer = setTimeout(() => {
      task.running = this.runOnce(task).finally(() => {
        task.running = undefined;
      });
    }, delayMs);
    task.timer.unref();
  }

  private async runOnce(task: Task): Promise<void> {
    let outcome: 'ok' | 'failed' | 'skipped';
    let next = task.options.everyMs;
    try {
      outcome = task.options.lock ? await this.runLocked(task, task.options.lock) : await this.run(task);
      if (task.streak.reset()) this.logger.log(`${task.name} works again`);
    } catch (error) {
      outcome = 'failed';
      next = task.streak.fail();
      if (task.streak.worthLogging) {
        this.logger.warn(
          `${task.name} failed (${task.streak.failures} in a row), next try in ${Math.round(next / 1000)} s: ${(error as Error).message}`,
        );
      }
    }
    periodicMetrics.runs.inc({ task: task.name, outcome });
    this.schedule(task, next);
  }

  private async run(task: Task): Promise<'ok'> {
    await task.run(this.shutdown.signal);
    return 'ok';
  }

  /** Runs the task while holding a session advisory lock on its own connection; skips if another replica holds it. */
  private async runLocked(task: Task, lock: string): Promise<'ok' | 'skipped'> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lock])) as {
        locked: boolean;
      }[];
      if (!row?.locked) return 'skipped';
      try {
        return await this.run(task);
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }
}
