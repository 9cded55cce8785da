import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance } from '@stripe/stripe-js';
import { CircleAlert, Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTheme } from '@/components/theme-provider';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useStripeJs } from '../api/load-stripe';
import { formatAmount } from '../utils/format';
import { PaymentSetupLoader } from './payment-setup-loader';
import { StripeNotConfigured } from './stripe-not-configured';

interface StripePaymentFormProps {
  publishableKey: string;
  clientSecret: string;
  /** Dollars, for the Pay button. */
  amount: number;
}

function appearanceFor(theme: 'light' | 'dark'): Appearance {
  return {
    theme: theme === 'dark' ? 'night' : 'stripe',
    variables: {
      colorPrimary: theme === 'dark' ? '#a78bfa' : '#7c3aed',
      borderRadius: '10px',
      fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    },
  };
}

/** Stripe's PaymentElement for a payment intent (loaded on demand, so only payers download Stripe.js). */
export default function StripePaymentForm({ publishableKey, clientSecret, amount }: StripePaymentFormProps) {
  const stripe = useStripeJs(publishableKey);
  const { resolvedTheme } = useTheme();

  if (stripe.isPending) return <PaymentSetupLoader />;
  if (!stripe.data) return <StripeNotConfigured reason="Stripe.js could not be loaded" />;

  return (
    <Elements stripe={stripe.data} options={{ clientSecret, appearance: appearanceFor(resolvedTheme) }}>
      <StripeCheckoutForm amount={amount} />
    </Elements>
  );
}

function StripeCheckoutForm({ amount }: { amount: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || submitting) return;
    setSubmitting(true);
    setMessage(null);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}${paths.paymentResult}` },
    });
    // Only reached when confirming failed: on success Stripe redirects to the return URL.
    setMessage(error.message ?? 'Your payment could not be completed. Please try again.');
    setSubmitting(false);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      {ready ? null : <PaymentSetupLoader className="min-h-24" />}
      <PaymentElement
        onReady={() => setReady(true)}
        onLoadError={({ error }) => {
          setReady(true);
          setMessage(error.message ?? 'The payment form could not be loaded. Please try again.');
        }}
      />
      {message ? (
        <div
          role="alert"
          className="flex items-start gap-2.5 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive dark:text-red-300"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{message}</p>
        </div>
      ) : null}
      <Button
        type="submit"
        variant="brand"
        size="lg"
        className="w-full"
        disabled={!stripe || !elements || !ready || submitting}
      >
        {submitting ? <Spinner /> : <Lock aria-hidden="true" />}
        Pay {formatAmount(amount)}
      </Button>
    </form>
  );
}
