import { useAuth } from '@/features/auth/auth-provider';
import { CreditsPage } from '@/features/credits/components/credits-page';

/** Hands the signed-in user's balance (guaranteed by RequireAuth) to the credits page. */
export function Component() {
  const { user } = useAuth();
  if (!user) return null;
  return <CreditsPage balance={user.credits} />;
}
