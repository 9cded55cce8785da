import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentUserQueryOptions } from '@/lib/session/current-user';
import { useAuth } from '@/features/auth/auth-provider';
import { ModelsPage } from '@/features/models/components/models-page';

/** Hands the signed-in user (guaranteed by RequireAuth) to the models page, and refreshes it when credits move. */
export function Component() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const refreshUser = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey }),
    [queryClient],
  );
  if (!user) return null;
  return <ModelsPage username={user.username} credits={user.credits} onCreditsChanged={refreshUser} />;
}
