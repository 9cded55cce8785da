import type { CurrentUser } from '@likeness/contracts';
import { Coins, LogOut, UserRoundCog } from 'lucide-react';
import { Link, NavLink, Outlet } from 'react-router';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { paths } from '@/config/paths';
import { useAuth } from '@/features/auth/auth-provider';
import { UserMenu } from '@/features/auth/components/user-menu';
import { useLogOut } from '@/features/auth/hooks/use-log-out';
import { cn } from '@/lib/cn';
import { LiveEventsProvider } from '@/lib/live-events/live-events';
import { isAdmin } from '@/lib/session/current-user';
import { bottomNav, LOW_CREDITS_THRESHOLD, mainNav } from '../navigation';
import { SIGNED_IN_HOME } from '../route-guards';
import { MobileMenu, mobileMenuItemClasses } from './mobile-menu';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/** The signed-in shell: header with navigation, theme and account menu; bottom bar on phones. */
export function AppLayout() {
  const { user } = useAuth();
  if (!user) return null;

  return (
    <LiveEventsProvider>
      <div className="flex min-h-dvh flex-col">
        <SkipLink />
        <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur-lg supports-[backdrop-filter]:bg-background/65">
          <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-6 px-4 sm:px-6 lg:px-8">
            <Link
              to={SIGNED_IN_HOME}
              className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-4 focus-visible:ring-offset-background"
            >
              <Logo />
            </Link>
            <nav aria-label="Main" className="hidden md:block">
              <ul className="flex items-center gap-1">
                {mainNav({ admin: isAdmin(user) }).map(({ to, label, icon: Icon }) => (
                  <li key={to}>
                    <NavLink
                      to={to}
                      className={({ isActive }) =>
                        cn(
                          'inline-flex h-9 items-center gap-2 rounded-lg px-3 text-sm font-medium transition-colors',
                          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                          isActive
                            ? 'bg-accent text-accent-foreground'
                            : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                        )
                      }
                    >
                      <Icon className="size-4" aria-hidden="true" />
                      {label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="ml-auto flex items-center gap-2 sm:gap-3">
              <Link
                to={paths.credits}
                aria-label={`${creditsLabel(user.credits)}: buy credits`}
                title="Buy credits"
                className={cn(
                  'hidden items-center gap-1.5 rounded-full border bg-muted/50 px-3 py-1 text-sm font-medium transition-colors sm:inline-flex',
                  'hover:border-primary/40 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
                )}
              >
                <Coins className="size-4 text-primary" aria-hidden="true" />
                <span className="tabular-nums">{user.credits}</span>{' '}
                <span className="text-muted-foreground">{user.credits === 1 ? 'credit' : 'credits'}</span>
              </Link>
              <ThemeToggle />
              <UserMenu user={user} />
              <SignedInMobileMenu user={user} />
            </div>
          </div>
        </header>
        <main id="main" className="flex flex-1 flex-col">
          <Outlet />
        </main>
        <SiteFooter className="mb-[calc(4rem+env(safe-area-inset-bottom))] md:mb-0" />
        <MobileNav credits={user.credits} />
      </div>
    </LiveEventsProvider>
  );
}

/** SPEC §2: on phones the menu adds Profile Settings and Logout to the header's links. */
function SignedInMobileMenu({ user }: { user: CurrentUser }) {
  const { logOut, isPending } = useLogOut();
  return (
    <MobileMenu className="md:hidden">
      {(close) => (
        <>
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1">
              {mainNav({ admin: isAdmin(user) }).map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    onClick={close}
                    className={({ isActive }) =>
                      cn(mobileMenuItemClasses, isActive && 'bg-accent text-accent-foreground')
                    }
                  >
                    <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-2 flex flex-col gap-1 border-t pt-3">
            <Link to={paths.profile} onClick={close} className={mobileMenuItemClasses}>
              <UserRoundCog className="size-5 text-muted-foreground" aria-hidden="true" />
              Profile Settings
            </Link>
            <button
              type="button"
              disabled={isPending}
              onClick={() => void logOut()}
              className={cn(mobileMenuItemClasses, 'disabled:opacity-60')}
            >
              <LogOut className="size-5 text-muted-foreground" aria-hidden="true" />
              Logout
            </button>
          </div>
        </>
      )}
    </MobileMenu>
  );
}

function creditsLabel(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** SPEC §2: a bottom navigation on small screens (below 768 px); Credits stands out when the balance is low. */
function MobileNav({ credits }: { credits: number }) {
  const lowOnCredits = credits < LOW_CREDITS_THRESHOLD;
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-background/90 pb-[env(safe-area-inset-bottom)] backdrop-blur-lg md:hidden"
    >
      <ul className="mx-auto flex h-16 max-w-md items-stretch justify-around px-2">
        {bottomNav.map(({ to, label, icon: Icon, highlightWhenLowOnCredits }) => {
          const highlighted = highlightWhenLowOnCredits && lowOnCredits;
          return (
            <li key={to} className="flex flex-1">
              <NavLink
                to={to}
                aria-label={highlighted ? `${label}, low balance: ${creditsLabel(credits)}` : undefined}
                data-highlighted={highlighted || undefined}
                className={({ isActive }) =>
                  cn(
                    'flex flex-1 flex-col items-center justify-center gap-1 rounded-lg text-xs font-medium transition-colors',
                    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
                    highlighted
                      ? 'text-amber-700 hover:text-amber-800 dark:text-amber-400 dark:hover:text-amber-300'
                      : isActive
                        ? 'text-primary'
                        : 'text-muted-foreground hover:text-foreground',
                    highlighted && isActive && 'font-semibold',
                  )
                }
              >
                <span className="relative">
                  <Icon className="size-5" aria-hidden="true" />
                  {highlighted ? (
                    <span
                      aria-hidden="true"
                      className="absolute -top-0.5 -right-1 size-2 rounded-full bg-amber-500 ring-2 ring-background"
                    />
                  ) : null}
                </span>
                {label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
