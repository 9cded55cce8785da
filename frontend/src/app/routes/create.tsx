import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentUserQueryOptions } from '@/lib/session/current-user';
import { useAuth } from '@/features/auth/auth-provider';
import { CreatePage } from '@/features/create/components/create-page';

/** Hands the signed-in user (guaranteed by RequireAuth) to the create page, and refreshes it when credits move. */
export function Component() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const refreshUser = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey }),
    [queryClient],
  );
  return <CreatePage user={user} onCreditsChanged={refreshUser} />;
}
