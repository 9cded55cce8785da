import { RotateCcw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '@/components/ui/button';
import { usePaymentConfig } from '../api/get-payment-config';
import { LocalTestCardForm } from './local-test-card-form';
import { PaymentSetupLoader } from './payment-setup-loader';
import { StripeNotConfigured } from './stripe-not-configured';

const StripePaymentForm = lazy(() => import('./stripe-payment-form'));

export interface PaymentFormProps {
  paymentIntentId: string;
  clientSecret: string;
  /** Dollars, for the Pay button. */
  amount: number;
}

/**
 * The payment form for one payment intent (DESIGN §4-§5): Stripe's PaymentElement when the
 * server runs Stripe, the local test card form with the local processor.
 */
export function PaymentForm({ paymentIntentId, clientSecret, amount }: PaymentFormProps) {
  const config = usePaymentConfig();

  if (config.isPending) return <PaymentSetupLoader />;
  if (config.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center text-sm">
        <p className="font-medium">The payment form could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => void config.refetch()}>
          <RotateCcw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }

  const { provider, publishableKey } = config.data;
  if (provider === 'local') return <LocalTestCardForm paymentIntentId={paymentIntentId} amount={amount} />;
  if (!publishableKey) return <StripeNotConfigured reason="Stripe's publishable key is missing" />;
  return (
    <Suspense fallback={<PaymentSetupLoader />}>
      <StripePaymentForm publishableKey={publishableKey} clientSecret={clientSecret} amount={amount} />
    </Suspense>
  );
}
