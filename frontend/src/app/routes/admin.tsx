import { lazy, Suspense } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/auth-provider';
import { AccessDenied } from '@/features/admin/components/access-denied';
import { isAdmin } from '@/lib/session/current-user';

// One user needs the dashboard: its code (and its charts' recharts) loads only when they open it.
const AdminPage = lazy(() =>
  import('@/features/admin/components/admin-page').then((module) => ({ default: module.AdminPage })),
);

/** /admin: the administrator's dashboard; any other signed-in user sees Access Denied (SPEC §2). */
export function Component() {
  const { user } = useAuth();
  if (!user) return null;
  if (!isAdmin(user)) return <AccessDenied />;
  return (
    <Suspense fallback={<PageSpinner />}>
      <AdminPage admin={user} />
    </Suspense>
  );
}
