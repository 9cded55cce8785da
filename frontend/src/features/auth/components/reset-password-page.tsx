import { RESET_TOKEN_INVALID_MESSAGE, RESET_TOKEN_MAX_LENGTH, resetPasswordRequestSchema } from '@likeness/contracts';
import { ArrowRight, CircleCheck, LockKeyhole, MailWarning } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { isApiError } from '@/lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { FormAlert, formAlertId, invalidWithAlert } from './form-alert';
import { BackToLogin, RecoveryCard } from './recovery-card';

const fields = ['token', 'password', 'confirmPassword'] as const;
const showFailure = failureToast('Reset failed', 'Failed to reset password. The link may have expired.');

type ResetState = { step: 'form' } | { step: 'done'; message: string } | { step: 'invalid-link' };

/** /reset-password?token=: set a new password with the link from the e-mail (SPEC §2). */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const [state, setState] = useState<ResetState>({ step: 'form' });

  if (!token) return <MissingToken />;

  if (state.step === 'done') {
    return (
      <RecoveryCard icon={CircleCheck} tone="success" title="Password reset" description={state.message}>
        <Button asChild variant="brand" size="lg" className="w-full">
          <Link to={paths.auth}>
            Continue to Login
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </RecoveryCard>
    );
  }

  // A token no reset link could carry (far too long) gets the server's answer without asking.
  if (state.step === 'invalid-link' || token.length > RESET_TOKEN_MAX_LENGTH) {
    return (
      <RecoveryCard
        icon={MailWarning}
        tone="problem"
        title="This link can't be used"
        description={RESET_TOKEN_INVALID_MESSAGE}
      >
        <div className="grid gap-5">
          <p className="rounded-xl border bg-muted/40 p-4 text-sm text-muted-foreground">
            A reset link works once and expires after a while, and asking for a new link retires the older ones. Ask for
            a fresh link and use the newest e-mail.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <BackToLogin variant="outline" />
            <Button asChild variant="brand">
              <Link to={paths.forgotPassword}>Request a New Link</Link>
            </Button>
          </div>
        </div>
      </RecoveryCard>
    );
  }

  return (
    <RecoveryCard
      icon={LockKeyhole}
      title="Set a new password"
      description="Choose a new password for your account. Every device signed in to it will be signed out."
    >
      <ResetPasswordForm
        token={token}
        onDone={(message) => setState({ step: 'done', message })}
        onInvalidLink={() => setState({ step: 'invalid-link' })}
      />
    </RecoveryCard>
  );
}

/** SPEC §2: without a token there is nothing to reset; say so and go to the auth screen. */
function MissingToken() {
  useEffect(() => {
    toast({ variant: 'destructive', title: 'Invalid reset link', description: RESET_TOKEN_INVALID_MESSAGE });
  }, []);
  return <Navigate to={paths.auth} replace />;
}

function ResetPasswordForm({
  token,
  onDone,
  onInvalidLink,
}: {
  token: string;
  onDone: (message: string) => void;
  onInvalidLink: () => void;
}) {
  const resetPassword = useResetPassword();
  const { errors, formError, clearError, onSubmit } = useSchemaForm({
    schema: resetPasswordRequestSchema,
    fields,
    onValid: async (values) => {
      const { message } = await resetPassword.mutateAsync(values);
      toast({ title: 'Password updated', description: 'You can now log in with your new password.' });
      onDone(message);
    },
    onFailure: (error) => {
      if (isApiError(error) && error.code === 'AUTH.RESET_TOKEN_INVALID') onInvalidLink();
      showFailure(error);
    },
    inlineFailure: { fallback: 'Failed to reset password. The link may have expired.', focus: 'password' },
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-5"
      aria-describedby={formError ? formAlertId('reset') : undefined}
    >
      <FormAlert formId="reset" message={formError} />
      <input type="hidden" name="token" value={token} />
      <FormField
        id="reset-password"
        name="password"
        type="password"
        label="New Password"
        autoComplete="new-password"
        placeholder="At least 6 characters"
        required
        error={errors.password}
        {...invalidWithAlert('reset', formError, errors.password)}
        onChange={() => clearError('password')}
      />
      <FormField
        id="reset-confirm-password"
        name="confirmPassword"
        type="password"
        label="Confirm New Password"
        autoComplete="new-password"
        placeholder="Repeat password"
        required
        error={errors.confirmPassword}
        {...invalidWithAlert('reset', formError, errors.confirmPassword)}
        onChange={() => clearError('confirmPassword')}
      />
      <Button type="submit" variant="brand" size="lg" className="mt-1 w-full" disabled={resetPassword.isPending}>
        {resetPassword.isPending ? <Spinner /> : null}
        Reset Password
      </Button>
    </form>
  );
}
