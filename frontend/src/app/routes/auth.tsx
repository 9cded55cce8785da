/** /auth and /login: the Login and Register tabs. */
export { AuthPage as Component } from '@/features/auth/components/auth-page';
