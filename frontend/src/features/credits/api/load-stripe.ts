import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * Stripe.js from js.stripe.com, created once per publishable key. The `pure` entry point only
 * adds the script when this runs, so visitors who never pay never download it.
 */
export function stripeQueryOptions(publishableKey: string) {
  return queryOptions<Stripe | null>({
    queryKey: ['stripe-js', publishableKey],
    queryFn: () => loadStripe(publishableKey),
    gcTime: Infinity,
    // A Stripe instance is not plain data: keep the very object Stripe.js returned.
    structuralSharing: false,
  });
}

export function useStripeJs(publishableKey: string) {
  return useQuery(stripeQueryOptions(publishableKey));
}
