import type { z } from 'zod';

/**
 * A kind of background work, queued on the JetStream stream `JOBS` (work-queue retention) and
 * taken by one durable consumer that every worker replica of the owning service shares. Like an
 * event, its subject carries its version: a queued payload never changes in place, a new shape
 * is a new version (and a new consumer).
 */
export interface JobDefinition<
  TQueue extends string = string,
  TName extends string = string,
  TPayload extends z.ZodType = z.ZodType,
> {
  /** The service whose workers take it. */
  readonly queue: TQueue;
  readonly name: TName;
  readonly version: number;
  readonly subject: `jobs.${TQueue}.${TName}.v${number}`;
  /** The durable consumer the workers share (the name dashboards and autoscalers watch). */
  readonly consumer: string;
  readonly payload: TPayload;
  /**
   * Names one piece of work (e.g. the job row's id). Each message goes to `<subject>.<key>`, so
   * whether that work is still queued can be asked of the stream. Default: the message's own id.
   */
  readonly key?: (payload: z.output<TPayload>) => string;
}

export function defineJob<TQueue extends string, TName extends string, TPayload extends z.ZodType>(definition: {
  queue: TQueue;
  name: TName;
  version: number;
  payload: TPayload;
  /** Defaults to `<queue>-<name>-v<version>`. */
  consumer?: string;
  key?: (payload: z.output<TPayload>) => string;
}): JobDefinition<TQueue, TName, TPayload> {
  const { queue, name, version } = definition;
  return {
    ...definition,
    subject: `jobs.${queue}.${name}.v${version}`,
    consumer: definition.consumer ?? `${queue}-${name}-v${version}`,
  };
}

/** What a job handler receives: the parsed payload. */
export type JobPayload<J extends JobDefinition> = z.output<J['payload']>;

/** What a job key may hold: one subject token. */
export const JOB_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The subject one message of a job travels on. */
export function jobMessageSubject(job: JobDefinition, key: string): string {
  if (!JOB_KEY_PATTERN.test(key)) throw new Error(`A job key must be one subject token: ${JSON.stringify(key)}`);
  return `${job.subject}.${key}`;
}

/** The work-queue stream (prefixed by a namespace in tests); jobs travel in the event envelope. */
export const JOBS_STREAM = 'JOBS';
export const JOBS_SUBJECT_PREFIX = 'jobs';
