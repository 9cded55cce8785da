export { CookiePolicyPage as Component } from '@/features/legal/components/cookie-policy-page';
