import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/auth-provider';
import { SIGN_IN_PATH, SIGNED_IN_HOME } from '../route-guards';
import { SkipLink } from './skip-link';

/** Screens that are themselves the way in: the header offers no Log In / Get Started there. */
const authPaths = new Set<string>([paths.auth, paths.login, paths.forgotPassword, paths.resetPassword]);

/** Pages anyone may see: a light header, the page, a small footer. */
export function PublicLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const onAuthScreen = authPaths.has(pathname);

  return (
    <div className="bg-page-glow flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 backdrop-blur-lg">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6 lg:px-8">
          <Link
            to="/"
            className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-4 focus-visible:ring-offset-background"
          >
            <Logo />
          </Link>
          <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
            <ThemeToggle />
            {user ? (
              <Button asChild variant="brand" size="sm">
                <Link to={SIGNED_IN_HOME}>Go to Dashboard</Link>
              </Button>
            ) : onAuthScreen ? null : (
              <>
                <Button asChild variant="ghost" size="sm">
                  <Link to={SIGN_IN_PATH}>Log In</Link>
                </Button>
                <Button asChild variant="brand" size="sm">
                  <Link to={`${SIGN_IN_PATH}?tab=register`}>Get Started</Link>
                </Button>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <footer className="border-t">
        <div className="mx-auto flex w-full max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-center text-sm text-muted-foreground sm:flex-row sm:px-6 sm:text-left lg:px-8">
          <p>© 2025 Likeness. All rights reserved.</p>
          <p>AI avatars from your selfies, paid with prepaid credits.</p>
        </div>
      </footer>
    </div>
  );
}
