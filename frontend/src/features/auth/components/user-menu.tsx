import type { CurrentUser } from '@likeness/contracts';
import { LayoutDashboard, LogOut, ShieldCheck, UserRoundCog } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';
import { initialsOf } from '@/lib/initials-of';
import { isAdmin } from '@/lib/session/current-user';
import { useLogOut } from '../hooks/use-log-out';

/**
 * The avatar button in the signed-in header, on every screen size (it is the phone's menu too):
 * who is signed in, then Dashboard, Profile Settings, Admin (the administrator only) and Logout (SPEC §2).
 */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { logOut, isPending } = useLogOut();
  const navigate = useNavigate();
  const initials = initialsOf(user.username);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        // The name holds the initials it shows, so a voice command naming them finds it.
        aria-label={`Account menu: ${initials}`}
        className="bg-brand-gradient grid size-9 place-items-center rounded-full text-sm font-semibold text-white shadow-sm ring-offset-background transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        {initials}
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-semibold">{user.username}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(paths.dashboard)}>
          <LayoutDashboard aria-hidden="true" />
          Dashboard
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(paths.profile)}>
          <UserRoundCog aria-hidden="true" />
          Profile Settings
        </DropdownMenuItem>
        {isAdmin(user) ? (
          <DropdownMenuItem onSelect={() => navigate(paths.admin)}>
            <ShieldCheck aria-hidden="true" />
            Admin
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={isPending}
          onSelect={() => {
            void logOut();
          }}
        >
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
