import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/auth-provider';
import { cn } from '@/lib/cn';
import { publicNav } from '../navigation';
import { SIGN_IN_PATH, SIGNED_IN_HOME } from '../route-guards';
import { MobileMenu, mobileMenuItemClasses } from './mobile-menu';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/** Screens that are themselves the way in: the header offers no Log In / Get Started there. */
const authPaths = new Set<string>([paths.auth, paths.login, paths.forgotPassword, paths.resetPassword]);

const REGISTER_PATH = `${SIGN_IN_PATH}?tab=register`;

const navLinkClasses = cn(
  'inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium text-muted-foreground transition-colors',
  'hover:bg-accent/60 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
);

/** Pages anyone may see: the public header (SPEC §2), the page, the footer. */
export function PublicLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const onAuthScreen = authPaths.has(pathname);

  return (
    <div className="bg-page-glow flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-transparent bg-background/70 backdrop-blur-lg supports-[backdrop-filter]:bg-background/55">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6 lg:px-8">
          <Link
            to={paths.landing}
            className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-4 focus-visible:ring-offset-background"
          >
            <Logo />
          </Link>
          <nav aria-label="Main" className="ml-4 hidden lg:block">
            <ul className="flex items-center gap-1">
              {publicNav.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to} className={navLinkClasses}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
            <ThemeToggle />
            {user ? (
              <Button asChild variant="brand" size="sm" className="hidden sm:inline-flex">
                <Link to={SIGNED_IN_HOME}>Go to Dashboard</Link>
              </Button>
            ) : onAuthScreen ? null : (
              <>
                <Button asChild variant="ghost" size="sm" className="hidden sm:inline-flex">
                  <Link to={SIGN_IN_PATH}>Log In</Link>
                </Button>
                <Button asChild variant="brand" size="sm" className="hidden sm:inline-flex">
                  <Link to={REGISTER_PATH}>Get Started</Link>
                </Button>
              </>
            )}
            <MobileMenu className="lg:hidden">
              {(close) => (
                <>
                  <nav aria-label="Main">
                    <ul className="flex flex-col gap-1">
                      {publicNav.map(({ to, label }) => (
                        <li key={to}>
                          <Link to={to} onClick={close} className={mobileMenuItemClasses}>
                            {label}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </nav>
                  <div className="mt-4 flex flex-col gap-2 border-t pt-4">
                    {user ? (
                      <Button asChild variant="brand" onClick={close}>
                        <Link to={SIGNED_IN_HOME}>Go to Dashboard</Link>
                      </Button>
                    ) : (
                      <>
                        <Button asChild variant="outline" onClick={close}>
                          <Link to={SIGN_IN_PATH}>Login / Sign Up</Link>
                        </Button>
                        <Button asChild variant="brand" onClick={close}>
                          <Link to={REGISTER_PATH}>Get Started</Link>
                        </Button>
                      </>
                    )}
                  </div>
                </>
              )}
            </MobileMenu>
          </div>
        </div>
      </header>
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
