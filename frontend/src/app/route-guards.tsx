import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/auth-provider';

export const SIGNED_IN_HOME = paths.dashboard;
export const SIGN_IN_PATH = '/auth';

/** Signed-in-only routes: a spinner while the session loads, visitors go to the auth screen. */
export function RequireAuth() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner className="min-h-dvh" />;
  if (!user) return <Navigate to={SIGN_IN_PATH} replace />;
  return <Outlet />;
}

/** The auth screen: a signed-in user has nothing to do there and goes to the dashboard. */
export function RedirectIfSignedIn() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  if (user) return <Navigate to={SIGNED_IN_HOME} replace />;
  return <Outlet />;
}

/** "/" until the landing page exists: the dashboard for users, the auth screen for visitors. */
export function RootRedirect() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner className="min-h-dvh" />;
  return <Navigate to={user ? SIGNED_IN_HOME : SIGN_IN_PATH} replace />;
}
