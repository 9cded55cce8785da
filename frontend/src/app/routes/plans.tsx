import { useAuth } from '@/features/auth/auth-provider';
import { PlansPage } from '@/features/credits/components/plans-page';

/** Hands the signed-in user's balance (guaranteed by RequireAuth) to the plans page. */
export function Component() {
  const { user } = useAuth();
  if (!user) return null;
  return <PlansPage balance={user.credits} />;
}
