import { CreditCard } from 'lucide-react';
import { useEffect } from 'react';

/**
 * DESIGN §5: the only case without a payment form, Stripe chosen but unusable (no publishable
 * key, or Stripe.js could not load). `reason` goes to the console for whoever runs the app.
 */
export function StripeNotConfigured({ reason }: { reason: string }) {
  useEffect(() => {
    console.warn(`${reason}. Payments will not work properly.`);
  }, [reason]);

  return (
    <div role="alert" className="flex flex-col items-center rounded-xl border border-dashed p-6 text-center">
      <span className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground">
        <CreditCard className="size-5" aria-hidden="true" />
      </span>
      <p className="mt-4 font-semibold">Stripe is not configured</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">
        Card payments are unavailable right now, so you have not been charged. Please try again later.
      </p>
    </div>
  );
}
