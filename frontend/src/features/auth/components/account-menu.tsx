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
import { isAdmin } from '@/lib/session/current-user';
import { useLogOut } from '../hooks/use-log-out';
import { AccountButton } from './account-button';

/** The account menu itself (see UserMenu, which loads it on first use). */
export function AccountMenu({ user, defaultOpen }: { user: CurrentUser; defaultOpen?: boolean }) {
  const { logOut, isPending } = useLogOut();
  const navigate = useNavigate();

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <AccountButton user={user} />
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
