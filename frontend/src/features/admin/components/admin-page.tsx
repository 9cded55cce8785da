import type { CurrentUser } from '@likeness/contracts';
import { CreditCard, ShieldCheck, Sparkles, Users } from 'lucide-react';
import { useState } from 'react';
import { LoadError } from '@/components/ui/load-error';
import { IconTabsList, Tabs, TabsContent, type IconTab } from '@/components/ui/tabs';
import { useTabParam } from '@/hooks/use-tab-param';
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

const tabs: readonly IconTab<AdminTab>[] = [
  { value: 'users', label: 'Users', icon: Users },
  { value: 'payments', label: 'Payments', icon: CreditCard },
  { value: 'jobs', label: 'Generation Jobs', icon: Sparkles },
  { value: 'security', label: 'Security', icon: ShieldCheck },
];

/**
 * /admin (SPEC §2): the totals, the activity charts, and the Users, Payments, Generation Jobs and
 * Security tabs; the open tab lives in `?tab=`. A user opened from any table shows in a dialog.
 * The server decides who is the administrator: a 403 shows Access Denied whatever the client thought.
 */
export function AdminPage({ admin }: { admin: CurrentUser }) {
  const [tab, selectTab] = useTabParam(tabs, 'users');
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const summary = useAdminSummary();

  if (isApiError(summary.error) && summary.error.status === 403) return <AccessDenied />;

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
        <IconTabsList tabs={tabs} />
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
