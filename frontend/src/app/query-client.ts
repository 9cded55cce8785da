import { loadToaster } from '@/components/ui/toaster-loader';
import { createQueryClient } from '@/lib/query-client';
import { currentUserQueryOptions } from '@/lib/session/current-user';

/**
 * The app's query client: when any call answers 401 (the session expired or was revoked and
 * could not be refreshed), the user becomes a visitor and the route guards send them to /auth.
 * A mutation starting fetches the toaster's code, so the toast that may follow it shows at once.
 */
export function createAppQueryClient() {
  return createQueryClient({
    onUnauthorized: (client) => client.setQueryData(currentUserQueryOptions().queryKey, null),
    onMutationStart: () => void loadToaster().catch(() => undefined),
  });
}
