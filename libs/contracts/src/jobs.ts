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
  /** Lanes besides the standard one, if any: see JobLanes. */
  readonly lanes?: JobLanes;
}

/**
 * Lanes that workers drain before the job's standard lane, highest first (e.g. `['priority']`),
 * each its own subject (`<subject>-<lane>.<key>`) and durable consumer (`<consumer>-<lane>`) on
 * the same stream, so it works on any JetStream. The standard lane keeps the job's own subject
 * and consumer. So that it is never starved, at least one pull in every `standardShare` goes to
 * the standard lane first when it has work.
 */
export interface JobLanes {
  readonly names: readonly string[];
  readonly standardShare: number;
}

/** A lane's name: one subject token. */
export const JOB_LANE_PATTERN = /^[a-z][a-z0-9]{0,31}$/;

export function defineJob<TQueue extends string, TName extends string, TPayload extends z.ZodType>(definition: {
  queue: TQueue;
  name: TName;
  version: number;
  payload: TPayload;
  /** Defaults to `<queue>-<name>-v<version>`. */
  consumer?: string;
  key?: (payload: z.output<TPayload>) => string;
  lanes?: JobLanes;
}): JobDefinition<TQueue, TName, TPayload> {
  const { queue, name, version, lanes } = definition;
  if (lanes && (lanes.names.some((lane) => !JOB_LANE_PATTERN.test(lane)) || !(lanes.standardShare >= 2))) {
    throw new Error(
      `Lanes of ${queue}.${name}: names of lower-case letters and digits, and a standardShare of 2 or more`,
    );
  }
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

/** A lane of a job: undefined is the standard lane. */
export type JobLane = string | undefined;

/** Every lane of a job, highest first, the standard lane (undefined) last. */
export function jobLanesOf(job: JobDefinition): JobLane[] {
  return [...(job.lanes?.names ?? []), undefined];
}

/** The subject prefix of a lane's messages (the job's own for the standard lane). */
export function jobLaneSubject(job: JobDefinition, lane: JobLane): string {
  if (lane === undefined) return job.subject;
  if (!job.lanes?.names.includes(lane)) throw new Error(`${job.subject} has no lane ${JSON.stringify(lane)}`);
  return `${job.subject}-${lane}`;
}

/** The durable consumer the workers of a lane share. */
export function jobLaneConsumer(job: JobDefinition, lane: JobLane): string {
  jobLaneSubject(job, lane);
  return lane === undefined ? job.consumer : `${job.consumer}-${lane}`;
}

/** The subject one message of a job travels on, in its lane. */
export function jobMessageSubject(job: JobDefinition, key: string, lane?: JobLane): string {
  if (!JOB_KEY_PATTERN.test(key)) throw new Error(`A job key must be one subject token: ${JSON.stringify(key)}`);
  return `${jobLaneSubject(job, lane)}.${key}`;
}

/** The work-queue stream (prefixed by a namespace in tests); jobs travel in the event envelope. */
export const JOBS_STREAM = 'JOBS';
export const JOBS_SUBJECT_PREFIX = 'jobs';
