/** /reset-password?token=…: sets a new password. */
export { ResetPasswordPage as Component } from '@/features/auth/components/reset-password-page';
