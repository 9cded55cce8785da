/** /forgot-password: asks for the e-mail address a reset link goes to. */
export { ForgotPasswordPage as Component } from '@/features/auth/components/forgot-password-page';
