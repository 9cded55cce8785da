import { CircleAlert, CircleCheckBig, Clock, RotateCcw } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { isApiError, serverMessageOr } from '@/lib/api-client';
import { useConfirmPayment } from '../api/confirm-payment';
import { formatCredits } from '@/lib/credit-packages/format-package';
import { BalanceCard } from './balance-card';

interface PaymentResultPageProps {
  /** The spendable balance; it changes once `onPaymentConfirmed` has refreshed the user. */
  balance: number;
  /** Refreshes whatever shows the balance; awaited before the success screen appears. */
  onPaymentConfirmed: () => Promise<unknown>;
}

/**
 * /success: where Stripe (or the local test form) returns with `payment_intent` and
 * `redirect_status`. A succeeded payment is confirmed with the server; anything else goes home.
 */
export function PaymentResultPage({ balance, onPaymentConfirmed }: PaymentResultPageProps) {
  const [searchParams] = useSearchParams();
  const paymentIntentId = searchParams.get('payment_intent');
  if (searchParams.get('redirect_status') !== 'succeeded' || !paymentIntentId) {
    return <Navigate to={paths.dashboard} replace />;
  }
  return (
    <ConfirmPayment
      key={paymentIntentId}
      paymentIntentId={paymentIntentId}
      balance={balance}
      onPaymentConfirmed={onPaymentConfirmed}
    />
  );
}

function addedText(credits: number): string {
  return `${formatCredits(credits)} ${credits === 1 ? 'has' : 'have'} been added to your account.`;
}

function ConfirmPayment({
  paymentIntentId,
  balance,
  onPaymentConfirmed,
}: PaymentResultPageProps & { paymentIntentId: string }) {
  const confirmation = useConfirmPayment({ onConfirmed: onPaymentConfirmed });
  const { mutate } = confirmation;
  // Confirm once per visit, even when StrictMode runs the effect twice (the server is idempotent anyway).
  const requested = useRef(false);

  const confirm = useCallback(() => {
    mutate(
      { paymentIntentId },
      {
        onSuccess: ({ credits }) => toast({ title: 'Payment confirmed!', description: addedText(credits) }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error confirming payment',
            description: serverMessageOr(error, 'Something went wrong.'),
          }),
      },
    );
  }, [mutate, paymentIntentId]);

  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    confirm();
  }, [confirm]);

  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-12 text-center sm:py-20">
      {confirmation.isSuccess ? (
        <div className="flex flex-col items-center">
          <span
            aria-hidden="true"
            className="grid size-16 place-items-center rounded-full bg-emerald-500/15 text-emerald-600 ring-8 ring-emerald-500/5 dark:text-emerald-400"
          >
            <CircleCheckBig className="size-8" />
          </span>
          <h1 className="mt-6 text-3xl font-semibold tracking-tight sm:text-4xl">Payment Successful!</h1>
          <p className="mt-3 text-base text-muted-foreground sm:text-lg">{addedText(confirmation.data.credits)}</p>
          <BalanceCard balance={balance} className="mt-8" />
          <Button asChild variant="brand" size="lg" className="mt-8">
            <Link to={paths.dashboard}>Go to Dashboard</Link>
          </Button>
        </div>
      ) : confirmation.isError ? (
        <ConfirmationFailed error={confirmation.error} onRetry={confirm} />
      ) : (
        <div role="status" className="flex flex-col items-center gap-4 text-muted-foreground">
          <Spinner className="size-8 text-primary" />
          <p>Confirming your payment...</p>
        </div>
      )}
    </div>
  );
}

function ConfirmationFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const pending = isApiError(error) && error.code === 'BILLING.PAYMENT_PENDING';
  // Worth another try: the payment is still processing, or the server could not be reached.
  const retryable = pending || !isApiError(error) || error.status >= 500;
  const Icon = pending ? Clock : CircleAlert;

  return (
    <div role="alert" className="flex flex-col items-center">
      <span
        aria-hidden="true"
        className={
          pending
            ? 'grid size-16 place-items-center rounded-full bg-amber-500/15 text-amber-600 dark:text-amber-400'
            : 'grid size-16 place-items-center rounded-full bg-destructive/10 text-destructive'
        }
      >
        <Icon className="size-8" />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight sm:text-3xl">
        {pending ? 'Your payment is still processing' : "We couldn't confirm your payment"}
      </h1>
      <p className="mt-3 text-muted-foreground">{serverMessageOr(error, 'Something went wrong.')}</p>
      <p className="mt-2 text-sm text-muted-foreground">
        If your card was charged, the credits are added to your account automatically once the payment clears.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {retryable ? (
          <Button variant="brand" size="lg" onClick={onRetry}>
            <RotateCcw aria-hidden="true" />
            Try again
          </Button>
        ) : null}
        <Button asChild variant={retryable ? 'outline' : 'brand'} size="lg">
          <Link to={paths.credits}>Back to Credits</Link>
        </Button>
      </div>
    </div>
  );
}
