import { toast } from '@/components/ui/use-toast';
import { useAuth } from '../auth-provider';

/**
 * Logout with SPEC §2's toasts. Clearing the user makes the route guard send the visitor to the
 * auth screen (/login from the profile), so nothing navigates here.
 */
export function useLogOut() {
  const { logoutMutation } = useAuth();

  async function logOut() {
    try {
      // mutateAsync: the caller unmounts as soon as the user is cleared, the promise still settles.
      await logoutMutation.mutateAsync();
      toast({ title: 'Logged out', description: 'See you next time!' });
    } catch {
      toast({ variant: 'destructive', title: 'Logout failed' });
    }
  }

  return { logOut, isPending: logoutMutation.isPending };
}
