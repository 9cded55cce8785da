export { TermsOfServicePage as Component } from '@/features/legal/components/terms-of-service-page';
