import type { CurrentUser } from '@likeness/contracts';
import { LayoutDashboard, LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '../auth-provider';
import { initialsOf } from '../utils/initials-of';

/** The avatar button in the signed-in header: who is signed in, where to go, and Logout. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { logoutMutation } = useAuth();
  const navigate = useNavigate();

  async function handleLogout() {
    try {
      // mutateAsync: the menu unmounts as soon as the user is cleared, the promise still settles.
      // Clearing the user makes RequireAuth send the visitor to /auth.
      await logoutMutation.mutateAsync();
      toast({ title: 'Logged out', description: 'See you next time!' });
    } catch {
      toast({ variant: 'destructive', title: 'Logout failed' });
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className="bg-brand-gradient grid size-9 place-items-center rounded-full text-sm font-semibold text-white shadow-sm ring-offset-background transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        <span aria-hidden="true">{initialsOf(user.username)}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-semibold">{user.username}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/dashboard')}>
          <LayoutDashboard aria-hidden="true" />
          Dashboard
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={logoutMutation.isPending}
          onSelect={() => {
            void handleLogout();
          }}
        >
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
