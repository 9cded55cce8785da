import { SetMetadata } from '@nestjs/common';

export const PERIODIC_METADATA = Symbol('PERIODIC_METADATA');

export interface PeriodicOptions {
  /** The pause between the end of one run and the start of the next. */
  everyMs: number;
  /**
   * A name for a PostgreSQL advisory lock: one replica at a time runs the task (the others skip
   * that turn). Unset: every replica runs it (the task must then be safe to run concurrently).
   */
  lock?: string;
}

export interface PeriodicMetadata {
  options: PeriodicOptions | ((config: never) => PeriodicOptions);
}

/**
 * Runs a provider method every `everyMs`: never two runs of it at once in a process, one
 * replica at a time with `lock`, failures logged and retried later with a growing pause, stopped
 * (and the run under way awaited) on shutdown. The method receives an AbortSignal that fires
 * when shutdown begins. Options can depend on the app's config:
 * `@Periodic((config: MyConfig) => ({ everyMs: config.SWEEP_INTERVAL_MS, lock: 'my.sweeper' }))`.
 */
export function Periodic<C>(options: PeriodicOptions | ((config: C) => PeriodicOptions)) {
  const metadata: PeriodicMetadata = { options: options as PeriodicMetadata['options'] };
  return <M extends (signal: AbortSignal) => Promise<unknown>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    SetMetadata(PERIODIC_METADATA, metadata)(target, key, descriptor);
  };
}
