import { currentUserQueryOptions } from '@/lib/session/current-user';
import { createQueryClient } from '@/lib/query-client';

/**
 * The app's query client: when any call answers 401 (the session expired or was revoked and
 * could not be refreshed), the user becomes a visitor and the route guards send them to /auth.
 */
export function createAppQueryClient() {
  return createQueryClient({
    onUnauthorized: (client) => client.setQueryData(currentUserQueryOptions().queryKey, null),
  });
}
