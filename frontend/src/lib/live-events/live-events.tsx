import {
  avatarsRoute,
  creditHistoryRoute,
  currentUserRoute,
  customModelsRoute,
  eventStreamRoute,
  type GenerationJob,
  generationJobsRoute,
  LIVE_EVENT_TYPES,
  LIVE_RESYNC_EVENT,
  type LiveEventData,
  type LiveEventType,
  liveEventSchemas,
  uploadedImagesRoute,
} from '@likeness/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { generationJobPath } from '@/lib/generation-jobs/get-generation-jobs';

/** After the server refused the stream (signed out, too many windows), try again this much later. */
export const LIVE_EVENTS_RETRY_MS = 30_000;

/** The lists each live event makes out of date, by the path their query keys start with. */
const STALE_PATHS: Record<LiveEventType, readonly string[]> = {
  'training.started': [customModelsRoute.path],
  // Applied to the job's own query instead (applyGenerationProgress): nothing is read again.
  'generation.progress': [],
  'training.completed': [customModelsRoute.path, uploadedImagesRoute.path],
  'training.failed': [customModelsRoute.path, uploadedImagesRoute.path],
  'generation.completed': [generationJobsRoute.path, avatarsRoute.path],
  'generation.failed': [generationJobsRoute.path],
  'credits.changed': [currentUserRoute.path, creditHistoryRoute.path],
  'payment.succeeded': [currentUserRoute.path, creditHistoryRoute.path],
};

/** Every query whose key starts with a path under `path` (`/api/avatars` covers each page of avatars). */
function invalidatePath(queryClient: QueryClient, path: string): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey: [first] }) => typeof first === 'string' && (first === path || first.startsWith(`${path}/`)),
  });
}

export function invalidateForEvent(queryClient: QueryClient, type: LiveEventType): void {
  for (const path of STALE_PATHS[type]) void invalidatePath(queryClient, path);
}

/**
 * A running job's new stage and kept avatars, written into the job's query (the Create page's
 * waiting screen) without asking the server. A job nobody follows is left alone; one whose read is
 * under way (its answer may be older than the event) or not yet answered is read again; one that
 * has ended already keeps its end.
 */
export function applyGenerationProgress(
  queryClient: QueryClient,
  { jobId, stage, avatarIds }: LiveEventData<'generation.progress'>,
): void {
  const queryKey = [generationJobPath(jobId)];
  const state = queryClient.getQueryState<GenerationJob>(queryKey);
  if (!state) return;
  if (state.fetchStatus === 'fetching' || !state.data) {
    void queryClient.invalidateQueries({ queryKey, exact: true });
    return;
  }
  queryClient.setQueryData<GenerationJob>(queryKey, (job) =>
    job && job.status === 'pending' ? { ...job, stage, avatarIds } : job,
  );
}

/** What one event does to the cache: a progress is applied, the others make lists stale. */
function handleEvent(queryClient: QueryClient, type: LiveEventType, data: string): void {
  if (type === 'generation.progress') {
    const progress = parseData(type, data);
    // One that cannot be read (a newer server?) still says a job moved: its jobs are read again.
    if (progress) applyGenerationProgress(queryClient, progress);
    else void invalidatePath(queryClient, generationJobsRoute.path);
    return;
  }
  invalidateForEvent(queryClient, type);
}

function parseData<T extends LiveEventType>(type: T, data: string): LiveEventData<T> | undefined {
  try {
    const parsed = liveEventSchemas[type].safeParse(JSON.parse(data));
    return parsed.success ? (parsed.data as LiveEventData<T>) : undefined;
  } catch {
    return undefined;
  }
}

const LiveEventsContext = createContext(false);

/**
 * Whether this session's live events stream is open: screens that poll for a change stop while it
 * is, and poll as before while it is down.
 */
export function useLiveUpdates(): boolean {
  return useContext(LiveEventsContext);
}

/**
 * One EventSource for the signed-in session: each event refreshes the queries it makes out of
 * date (or, for a job's progress, updates its query in place). The browser reconnects by itself after a drop (sending the last event id, so nothing is
 * missed); a refusal closes it, and it is opened again later, reading everything anew.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let reopened = false;
    const connect = () => {
      source = new EventSource(eventStreamRoute.path, { withCredentials: true });
      source.onopen = () => {
        setLive(true);
        // Events passed while it was closed for good are not replayed: read everything again.
        if (reopened) void queryClient.invalidateQueries();
      };
      source.onerror = () => {
        setLive(false);
        if (source?.readyState !== EventSource.CLOSED) return;
        reopened = true;
        retry = setTimeout(connect, LIVE_EVENTS_RETRY_MS);
      };
      for (const type of LIVE_EVENT_TYPES) {
        source.addEventListener(type, (message: MessageEvent<string>) => handleEvent(queryClient, type, message.data));
      }
      source.addEventListener(LIVE_RESYNC_EVENT, () => void queryClient.invalidateQueries());
    };
    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
      setLive(false);
    };
  }, [queryClient]);

  return <LiveEventsContext.Provider value={live}>{children}</LiveEventsContext.Provider>;
}
