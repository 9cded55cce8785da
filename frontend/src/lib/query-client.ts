import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { getQueryFn, isApiError } from './api-client';

export interface QueryClientOptions {
  /** Called when any query or mutation answers 401: the session is gone. */
  onUnauthorized?: (client: QueryClient) => void;
  /** Called when any mutation starts (something the user did, which may end in a toast). */
  onMutationStart?: () => void;
}

/**
 * For lists that change on the server while no screen watches (a generation or a training
 * finishing, another device): every screen showing one asks again when it mounts, showing the
 * cached list meanwhile.
 */
export const ALWAYS_REFETCH_ON_MOUNT = 0;

/** SPEC §7: data never goes stale on its own, no refetch on focus, no polling, no retries. */
export function createQueryClient({ onUnauthorized, onMutationStart }: QueryClientOptions = {}): QueryClient {
  const onError = (error: unknown) => {
    if (isApiError(error) && error.status === 401) onUnauthorized?.(client);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError, onMutate: () => onMutationStart?.() }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
  return client;
}
