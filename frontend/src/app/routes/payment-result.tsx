import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { currentUserQueryOptions } from '@/lib/session/current-user';
import { useAuth } from '@/features/auth/auth-provider';
import { PaymentResultPage } from '@/features/credits/components/payment-result-page';

/** /success: once the payment is confirmed, refetch the user so every balance on screen is current. */
export function Component() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const refreshUser = useCallback(
    () => queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey }),
    [queryClient],
  );
  if (!user) return null;
  return <PaymentResultPage balance={user.credits} onPaymentConfirmed={refreshUser} />;
}
