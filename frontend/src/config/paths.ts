/**
 * The app's URLs, shared by the router, the layouts and the features, so a path is spelled once.
 * (Features link to each other's screens through these, never by importing each other.)
 */
export const paths = {
  landing: '/',
  about: '/about',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  cookiePolicy: '/cookie-policy',
  sceneExplorer: '/scene-explorer',
  auth: '/auth',
  /** The auth screen again, as the profile's sign-out leads to it (SPEC §2). */
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  create: '/create',
  gallery: '/gallery',
  models: '/models',
  credits: '/credits',
  checkout: (packageId: string) => `/checkout/${encodeURIComponent(packageId)}`,
  paymentResult: '/success',
  profile: '/profile',
  plans: '/plans',
  admin: '/admin',
} as const;

export type ProfileTab = 'account' | 'billing' | 'security' | 'help';

/** The profile opened on one tab: `/profile?tab=help` (the account tab is the bare `/profile`). */
export function profileUrl(tab: ProfileTab = 'account'): string {
  return tab === 'account' ? paths.profile : `${paths.profile}?tab=${tab}`;
}

/** Where the payment provider (or the local test form) returns after a successful payment. */
export function paymentResultUrl(paymentIntentId: string): string {
  const search = new URLSearchParams({ payment_intent: paymentIntentId, redirect_status: 'succeeded' });
  return `${paths.paymentResult}?${search.toString()}`;
}

/** The landing page's sections (SPEC §2), linked from the header and the footer. */
export const landingSections = {
  howItWorks: '/#how-it-works',
  examples: '/#examples',
  pricing: '/#pricing',
  testimonials: '/#testimonials',
} as const;
