import type { CurrentUser } from '@likeness/contracts';
import { lazy } from 'react';
import { MenuOnDemand } from '@/components/ui/menu-on-demand';
import { AccountButton } from './account-button';

const loadAccountMenu = () => import('./account-menu');
const AccountMenu = lazy(() => loadAccountMenu().then((module) => ({ default: module.AccountMenu })));

/**
 * The avatar button in the signed-in header, on every screen size (it is the phone's menu too):
 * who is signed in, then Dashboard, Profile Settings, Admin (the administrator only) and Logout
 * (SPEC §2). The menu's code loads when it is first used.
 */
export function UserMenu({ user }: { user: CurrentUser }) {
  return (
    <MenuOnDemand
      preload={loadAccountMenu}
      standIn={(props) => <AccountButton user={user} {...props} />}
      menu={<AccountMenu user={user} defaultOpen />}
    />
  );
}
