import type { GenerationJob } from '@likeness/contracts';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLiveUpdates } from '@/lib/live-events/live-events';
import { generationJobQueryOptions } from '../api/get-generation-job';

/** SPEC §9: a started job is polled every 3 seconds (while the live events are down)... */
export const JOB_POLL_INTERVAL_MS = 3_000;
/**
 * While the live events are up they bring the job's end at once; the job is still read this
 * often so the overlay can show its stage (queued, generating, saving), which no event carries.
 */
export const JOB_STAGE_POLL_INTERVAL_MS = 5_000;
/** ...and no longer than 120 seconds; a job still running then shows up in the gallery when it is done. */
export const JOB_POLL_TIMEOUT_MS = 120_000;

export interface GenerationJobHandlers {
  onCompleted: (job: GenerationJob) => void;
  onFailed: (job: GenerationJob) => void;
  /** A poll itself failed (the network, the server): polling stops. */
  onError: (error: Error) => void;
  /** Still pending after the cutoff: polling stops, the job carries on on the server. */
  onTimedOut: () => void;
}

export interface GenerationJobOptions {
  intervalMs?: number;
  timeoutMs?: number;
}

type Outcome = 'completed' | 'failed' | 'error' | 'timed-out';

/**
 * Follows a started generation job until it completes, fails, a poll fails or the cutoff passes,
 * then calls the matching handler once. `jobId` null follows nothing.
 */
export function useGenerationJob(
  jobId: string | null,
  handlers: GenerationJobHandlers,
  { intervalMs = JOB_POLL_INTERVAL_MS, timeoutMs = JOB_POLL_TIMEOUT_MS }: GenerationJobOptions = {},
): { job: GenerationJob | undefined; isPolling: boolean } {
  const [timedOutJobId, setTimedOutJobId] = useState<string | null>(null);
  const timedOut = jobId !== null && timedOutJobId === jobId;
  // The live events refresh the job when it ends; while they are down, polling finds the end too.
  const live = useLiveUpdates();

  const query = useQuery(
    jobId && !timedOut
      ? {
          ...generationJobQueryOptions(jobId),
          // Asked again while pending (less often while live: only for its stage); a finished job or a failed poll stops it.
          refetchInterval: (current) =>
            current.state.status === 'error' || (current.state.data && current.state.data.status !== 'pending')
              ? false
              : live
                ? Math.max(intervalMs, JOB_STAGE_POLL_INTERVAL_MS)
                : intervalMs,
          // The user may look at another tab meanwhile; the result should be there when they return.
          refetchIntervalInBackground: true,
        }
      : { queryKey: ['generation-job', 'none'], queryFn: skipToken },
  );

  useEffect(() => {
    if (!jobId) return;
    const timer = setTimeout(() => setTimedOutJobId(jobId), timeoutMs);
    return () => clearTimeout(timer);
  }, [jobId, timeoutMs]);

  const job = jobId && query.data?.id === jobId ? query.data : undefined;
  const outcome: Outcome | null = !jobId
    ? null
    : job?.status === 'completed'
      ? 'completed'
      : job?.status === 'failed'
        ? 'failed'
        : query.isError
          ? 'error'
          : timedOut
            ? 'timed-out'
            : null;

  const latestHandlers = useRef(handlers);
  useEffect(() => {
    latestHandlers.current = handlers;
  }, [handlers]);

  // Each job reports once, whatever re-renders (or StrictMode's second effect run) follow.
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!jobId || !outcome || reported.current === jobId) return;
    reported.current = jobId;
    const current = latestHandlers.current;
    if (outcome === 'completed' && job) current.onCompleted(job);
    else if (outcome === 'failed' && job) current.onFailed(job);
    else if (outcome === 'error') current.onError(query.error ?? new Error('The job could not be checked.'));
    else current.onTimedOut();
  }, [jobId, outcome, job, query.error]);

  return { job, isPolling: jobId !== null && outcome === null };
}
