import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings } from '@likeness/nest-kit';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { anyPredictionEndedSubject, jobIdOf } from './prediction-ended.js';

/** One job's watch: its waits end early once its prediction's webhook has come. */
export interface PredictionWatch {
  /** Resolves after `ms`, or as soon as the webhook has come (at once if it came since the last wait). */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * A worker process's one subscription to the "prediction ended" notices the request side sends
 * when a prediction's webhook is verified, handed in memory to the job that waits on it.
 */
@Injectable()
export class PredictionWakeups implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PredictionWakeups.name);
  private readonly watches = new Map<string, Set<() => void>>();
  private subscription: Subscription | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.nats.subscribe(anyPredictionEndedSubject(this.settings), {
      callback: (error, message) => {
        if (error) {
          this.logger.warn(`Prediction notices: ${error.message}`);
          return;
        }
        const jobId = jobIdOf(this.settings, message.subject);
        for (const wake of (jobId && this.watches.get(jobId)) || []) wake();
      },
    });
  }

  beforeApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  /** Starts watching a job before its prediction starts, so a webhook that comes quickly is not missed. */
  watch(jobId: string): PredictionWatch {
    let woken = false;
    let resolveWait: (() => void) | undefined;
    const wake = () => {
      woken = true;
      resolveWait?.();
    };
    const own = this.watches.get(jobId) ?? new Set();
    own.add(wake);
    this.watches.set(jobId, own);
    return {
      wait: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (woken || signal?.aborted) {
            woken = false;
            if (signal?.aborted) reject(signal.reason as Error);
            else resolve();
            return;
          }
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', aborted);
            resolveWait = undefined;
            woken = false;
          };
          const aborted = () => {
            done();
            reject(signal?.reason as Error);
          };
          const timer = setTimeout(() => {
            done();
            resolve();
          }, ms);
          resolveWait = () => {
            done();
            resolve();
          };
          signal?.addEventListener('abort', aborted, { once: true });
        }),
      close: () => {
        own.delete(wake);
        if (own.size === 0 && this.watches.get(jobId) === own) this.watches.delete(jobId);
      },
    };
  }
}
