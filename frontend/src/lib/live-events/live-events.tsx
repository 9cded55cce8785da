import {
  avatarsRoute,
  creditHistoryRoute,
  currentUserRoute,
  customModelsRoute,
  eventStreamRoute,
  generationJobsRoute,
  LIVE_EVENT_TYPES,
  LIVE_RESYNC_EVENT,
  type LiveEventType,
  uploadedImagesRoute,
} from '@likeness/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

/** After the server refused the stream (signed out, too many windows), try again this much later. */
export const LIVE_EVENTS_RETRY_MS = 30_000;

/** The lists each live event makes out of date, by the path their query keys start with. */
const STALE_PATHS: Record<LiveEventType, readonly string[]> = {
  'training.started': [customModelsRoute.path],
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
 * date. The browser reconnects by itself after a drop (sending the last event id, so nothing is
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
        source.addEventListener(type, () => invalidateForEvent(queryClient, type));
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
