import type { CurrentUser } from '@likeness/contracts';
import { CircleHelp, LogOut, ReceiptText, ShieldCheck, UserRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { IconTabsList, Tabs, TabsContent, type IconTab } from '@/components/ui/tabs';
import type { ProfileTab } from '@/config/paths';
import { useTabParam } from '@/hooks/use-tab-param';
import { AccountTab } from './account-tab';
import { BillingTab } from './billing-tab';
import { HelpTab } from './help-tab';
import { SecurityTab } from './security-tab';

interface ProfilePageProps {
  user: CurrentUser;
  /** Ends the session with SPEC §2's toasts; the route guard then leads to /login. */
  onLogOut: () => void;
  loggingOut: boolean;
}

const tabs: readonly IconTab<ProfileTab>[] = [
  { value: 'account', label: 'Account', icon: UserRound },
  { value: 'billing', label: 'Billing', icon: ReceiptText },
  { value: 'security', label: 'Security', icon: ShieldCheck },
  { value: 'help', label: 'Help & Support', icon: CircleHelp },
];

/** /profile: account, billing, security and help tabs; the open tab lives in `?tab=` (SPEC §2). */
export function ProfilePage({ user, onLogOut, loggingOut }: ProfilePageProps) {
  const [tab, selectTab] = useTabParam(tabs, 'account');

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex min-w-0 flex-col gap-2">
          <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">Profile Settings</h1>
          <p className="text-base text-muted-foreground sm:text-lg">
            Your account, credits, password and help, in one place.
          </p>
        </div>
        <Button variant="outline" className="self-start sm:self-auto" disabled={loggingOut} onClick={onLogOut}>
          {loggingOut ? <Spinner /> : <LogOut aria-hidden="true" />}
          Log Out
        </Button>
      </header>

      <Tabs value={tab} onValueChange={selectTab} className="mt-8">
        <IconTabsList tabs={tabs} />
        <TabsContent value="account" className="mt-6">
          <AccountTab user={user} onShowHistory={() => selectTab('billing')} />
        </TabsContent>
        <TabsContent value="billing" className="mt-6">
          <BillingTab credits={user.credits} />
        </TabsContent>
        <TabsContent value="security" className="mt-6">
          <SecurityTab username={user.username} />
        </TabsContent>
        <TabsContent value="help" className="mt-6">
          <HelpTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
