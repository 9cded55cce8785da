/**
 * The app's URLs, shared by the router, the layouts and the features, so a path is spelled once.
 * (Features link to each other's screens through these, never by importing each other.)
 */
export const paths = {
  dashboard: '/dashboard',
  create: '/create',
  gallery: '/gallery',
  models: '/models',
  credits: '/credits',
  checkout: (packageId: string) => `/checkout/${encodeURIComponent(packageId)}`,
  paymentResult: '/success',
} as const;

/** Where the payment provider (or the local test form) returns after a successful payment. */
export function paymentResultUrl(paymentIntentId: string): string {
  const search = new URLSearchParams({ payment_intent: paymentIntentId, redirect_status: 'succeeded' });
  return `${paths.paymentResult}?${search.toString()}`;
}
