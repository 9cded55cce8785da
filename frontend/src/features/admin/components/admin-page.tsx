import type { CurrentUser } from '@likeness/contracts';
import { CreditCard, ShieldCheck, Sparkles, Users, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { isApiError } from '@/lib/api-client';
import { useAdminSummary } from '../api/get-admin-summary';
import { formatRelativeTime } from '../utils/format';
import { AccessDenied } from './access-denied';
import { ActivitySection } from './activity-section';
import { AdminSecurityTab } from './admin-security-tab';
import { GenerationJobsTab } from './generation-jobs-tab';
import { PaymentsTab } from './payments-tab';
import { SummaryCards, SummaryCardsSkeleton } from './summary-cards';
import { UserDetailDialog } from './user-detail-dialog';
import { UsersTab } from './users-tab';

type AdminTab = 'users' | 'payments' | 'jobs' | 'security';

const tabs: readonly { value: AdminTab; label: string; icon: LucideIcon }[] = [
  { value: 'users', label: 'Users', icon: Users },
  { value: 'payments', label: 'Payments', icon: CreditCard },
  { value: 'jobs', label: 'Generation Jobs', icon: Sparkles },
  { value: 'security', label: 'Security', icon: ShieldCheck },
];

function isAdminTab(value: string | null): value is AdminTab {
  return tabs.some((tab) => tab.value === value);
}

/**
 * /admin (SPEC §2): the totals, the activity charts, and the Users, Payments, Generation Jobs and
 * Security tabs; the open tab lives in `?tab=`. A user opened from any table shows in a dialog.
 * The server decides who is the administrator: a 403 shows Access Denied whatever the client thought.
 */
export function AdminPage({ admin }: { admin: CurrentUser }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: AdminTab = isAdminTab(requested) ? requested : 'users';
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const summary = useAdminSummary();

  if (isApiError(summary.error) && summary.error.status === 403) return <AccessDenied />;

  const selectTab = (next: string) => {
    setSearchParams(
      (params) => {
        if (next === 'users') params.delete('tab');
        else params.set('tab', next);
        return params;
      },
      { replace: true },
    );
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">Admin Dashboard</h1>
        <p className="text-base text-muted-foreground sm:text-lg">
          Users, payments and generations across Likeness
          {summary.data?.lastEventAt ? `, as of ${formatRelativeTime(summary.data.lastEventAt)}` : ''}.
        </p>
      </header>

      {summary.isPending ? (
        <SummaryCardsSkeleton />
      ) : summary.isError ? (
        <LoadError what="the totals" onRetry={() => void summary.refetch()} />
      ) : (
        <SummaryCards summary={summary.data} />
      )}

      <ActivitySection />

      <Tabs value={tab} onValueChange={selectTab}>
        <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:grid-cols-4">
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value} className="h-10">
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="users" className="mt-6">
          <UsersTab onOpenUser={setOpenUserId} />
        </TabsContent>
        <TabsContent value="payments" className="mt-6">
          <PaymentsTab onOpenUser={setOpenUserId} />
        </TabsContent>
        <TabsContent value="jobs" className="mt-6">
          <GenerationJobsTab onOpenUser={setOpenUserId} />
        </TabsContent>
        <TabsContent value="security" className="mt-6">
          <AdminSecurityTab admin={admin} />
        </TabsContent>
      </Tabs>

      <UserDetailDialog userId={openUserId} onClose={() => setOpenUserId(null)} />
    </div>
  );
}
