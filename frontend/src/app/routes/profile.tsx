import { useAuth } from '@/features/auth/auth-provider';
import { useLogOut } from '@/features/auth/hooks/use-log-out';
import { ProfilePage } from '@/features/profile/components/profile-page';

/** Hands the signed-in user (guaranteed by RequireAuth) and the logout to the profile feature. */
export function Component() {
  const { user } = useAuth();
  const { logOut, isPending } = useLogOut();
  if (!user) return null;
  return <ProfilePage user={user} onLogOut={() => void logOut()} loggingOut={isPending} />;
}
