import { useAuth } from '@/features/auth/auth-provider';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';

/** Hands the signed-in user (guaranteed by RequireAuth) to the dashboard feature. */
export function Component() {
  const { user } = useAuth();
  if (!user) return null;
  return <DashboardPage userId={user.id} username={user.username} credits={user.credits} />;
}
