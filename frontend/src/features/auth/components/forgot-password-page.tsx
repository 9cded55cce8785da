import { PASSWORD_RESET_TOKEN_TTL_MINUTES, requestPasswordResetRequestSchema } from '@likeness/contracts';
import { KeyRound, MailCheck, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { BackToLogin, RecoveryCard } from './recovery-card';
import { FormAlert, formAlertId, invalidWithAlert } from './form-alert';

const fields = ['email'] as const;

/** 60 → "1 hour", 90 → "90 minutes". */
function linkLifetime(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  const hours = minutes / 60;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** /forgot-password: ask for a reset link by e-mail (SPEC §2). */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  // Coming back with "Try Different Email" keeps what was typed, to correct it.
  const [lastEmail, setLastEmail] = useState('');

  if (sent) {
    return (
      <RecoveryCard icon={MailCheck} tone="success" title="Check your email" description={sent.message}>
        <div className="grid gap-5">
          <p className="rounded-xl border bg-muted/40 p-4 text-sm text-muted-foreground">
            We sent it to <span className="font-medium [overflow-wrap:anywhere] text-foreground">{sent.email}</span>.
            The link works once, for {linkLifetime(PASSWORD_RESET_TOKEN_TTL_MINUTES)}. Nothing after a few minutes?
            Check your spam or junk folder.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <Button variant="outline" onClick={() => setSent(null)}>
              <RotateCcw aria-hidden="true" />
              Try Different Email
            </Button>
            <BackToLogin variant="brand" />
          </div>
        </div>
      </RecoveryCard>
    );
  }

  return (
    <RecoveryCard
      icon={KeyRound}
      title="Forgot your password?"
      description="Enter the email address of your account and we'll send you a link to set a new password."
    >
      <ForgotPasswordForm
        defaultEmail={lastEmail}
        onSent={(email, message) => {
          setLastEmail(email);
          setSent({ email, message });
        }}
      />
    </RecoveryCard>
  );
}

function ForgotPasswordForm({
  defaultEmail,
  onSent,
}: {
  defaultEmail: string;
  onSent: (email: string, message: string) => void;
}) {
  const requestReset = useRequestPasswordReset();
  const { errors, formError, clearError, onSubmit } = useSchemaForm({
    schema: requestPasswordResetRequestSchema,
    fields,
    onValid: async ({ email }) => {
      const { message } = await requestReset.mutateAsync({ email });
      toast({ title: 'Email sent!', description: message });
      onSent(email, message);
    },
    onFailure: failureToast('Oops!', "Couldn't send the email. Please try again."),
    inlineFailure: { fallback: "Couldn't send the email. Please try again." },
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-5"
      aria-describedby={formError ? formAlertId('forgot') : undefined}
    >
      <FormAlert formId="forgot" message={formError} />
      <FormField
        id="forgot-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        placeholder="jane@example.com"
        defaultValue={defaultEmail}
        required
        error={errors.email}
        {...invalidWithAlert('forgot', formError, errors.email)}
        onChange={() => clearError('email')}
      />
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={requestReset.isPending}>
        {requestReset.isPending ? <Spinner /> : null}
        Send Reset Link
      </Button>
      <BackToLogin variant="ghost" className="w-full" />
    </form>
  );
}
