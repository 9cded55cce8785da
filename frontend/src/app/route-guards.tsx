import { Navigate, Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/auth-provider';
import { isSignedOutArrival } from '@/lib/session/signed-out';

export const SIGNED_IN_HOME = paths.dashboard;
export const SIGN_IN_PATH = paths.auth;

/** A route's `handle`: where a visitor who opens it is sent, when not the auth screen's usual path. */
export interface RouteHandle {
  signInPath?: string;
}

/** The innermost matched route's sign-in path (SPEC §2: the profile sends visitors to /login). */
function useSignInPath(): string {
  const matches = useMatches();
  for (const { handle } of [...matches].reverse()) {
    const signInPath = (handle as RouteHandle | undefined)?.signInPath;
    if (signInPath) return signInPath;
  }
  return SIGN_IN_PATH;
}

/**
 * Signed-in-only routes: a spinner while the session loads, visitors go to the auth screen. A
 * user leaving by signing out (an account deleted) is not sent there while the page they are
 * going to loads.
 */
export function RequireAuth() {
  const { user, isLoading } = useAuth();
  const signInPath = useSignInPath();
  const leaving = isSignedOutArrival(useNavigation().location?.state);
  if (isLoading) return <PageSpinner className="min-h-dvh" />;
  if (!user) return leaving ? null : <Navigate to={signInPath} replace />;
  return <Outlet />;
}

/**
 * The session as a public page's guard sees it: arriving by signing out, the user still cached
 * counts as loading until it is cleared, so the guard does not send them back in.
 */
export function usePublicSession() {
  const { user, isLoading } = useAuth();
  const { state } = useLocation();
  return { user, isLoading: isLoading || (user !== null && isSignedOutArrival(state)) };
}

/**
 * The auth screen: a signed-in user has nothing to do there and goes to the dashboard. It paints
 * at once; the session check decides whether to leave when it answers.
 */
export function RedirectIfSignedIn() {
  const { user, isLoading } = usePublicSession();
  if (!isLoading && user) return <Navigate to={SIGNED_IN_HOME} replace />;
  return <Outlet />;
}
