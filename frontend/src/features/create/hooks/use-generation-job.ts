import type { GenerationJob } from '@likeness/contracts';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLiveUpdates } from '@/lib/live-events/live-events';
import { generationJobQueryOptions } from '../api/get-generation-job';

/**
 * SPEC §9: a started job is polled every 3 seconds while the live events are down. While they are
 * up it is not polled: they bring its stage and each kept avatar (`generation.progress`, written
 * into its query) and its end (`generation.completed`/`failed`, which read it again).
 */
export const JOB_POLL_INTERVAL_MS = 3_000;
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
  // The live events bring the job's progress and end; while they are down, polling finds them.
  const live = useLiveUpdates();
  const queryClient = useQueryClient();

  const query = useQuery(
    jobId && !timedOut
      ? {
          ...generationJobQueryOptions(jobId),
          // Asked again while pending and the live events are down; a finished job or a failed poll stops it.
          refetchInterval: (current) =>
            live || current.state.status === 'error' || (current.state.data && current.state.data.status !== 'pending')
              ? false
              : intervalMs,
          // The user may look at another tab meanwhile; the result should be there when they return.
          refetchIntervalInBackground: true,
        }
      : { queryKey: ['generation-job', 'none'], queryFn: skipToken },
  );

  // When the stream opens while a job is followed, what passed before it opened is read once.
  const wasLive = useRef(live);
  useEffect(() => {
    const opened = live && !wasLive.current;
    wasLive.current = live;
    if (!opened || !jobId || timedOut) return;
    const { queryKey } = generationJobQueryOptions(jobId);
    if (queryClient.getQueryData(queryKey)?.status === 'pending') {
      void queryClient.invalidateQueries({ queryKey, exact: true });
    }
  }, [live, jobId, timedOut, queryClient]);

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
