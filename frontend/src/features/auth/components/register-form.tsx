import { registerFormSchema } from '@likeness/contracts';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useAuth } from '../auth-provider';
import { FormAlert, formAlertId, invalidWithAlert } from './form-alert';

const fields = ['username', 'email', 'password', 'confirmPassword'] as const;

function welcomeDescription(credits: number): string {
  if (credits <= 0) return 'Your account is ready.';
  return `Your account is ready. Enjoy your ${credits} free ${credits === 1 ? 'credit' : 'credits'}!`;
}

export function RegisterForm() {
  const { registerMutation } = useAuth();
  const isPending = registerMutation.isPending;
  const { errors, formError, clearError, onSubmit } = useSchemaForm({
    schema: registerFormSchema,
    fields,
    onValid: async ({ username, email, password }) => {
      const user = await registerMutation.mutateAsync({ username, email, password });
      // The user is now in the auth state; RedirectIfSignedIn takes them to /dashboard. Navigating
      // here as well would race the context update and bounce through the guards.
      toast({ title: 'Registration successful', description: welcomeDescription(user.credits) });
    },
    onFailure: failureToast('Registration failed', 'Please try again with different information.'),
    inlineFailure: { fallback: 'Please try again with different information.' },
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-5"
      aria-describedby={formError ? formAlertId('register') : undefined}
    >
      <FormAlert formId="register" message={formError} />
      <FormField
        id="register-username"
        name="username"
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="jane_doe"
        required
        error={errors.username}
        {...invalidWithAlert('register', formError, errors.username)}
        onChange={() => clearError('username')}
      />
      <FormField
        id="register-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        placeholder="jane@example.com"
        required
        error={errors.email}
        {...invalidWithAlert('register', formError, errors.email)}
        onChange={() => clearError('email')}
      />
      <FormField
        id="register-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        placeholder="At least 6 characters"
        required
        error={errors.password}
        {...invalidWithAlert('register', formError, errors.password)}
        onChange={() => clearError('password')}
      />
      <FormField
        id="register-confirm-password"
        name="confirmPassword"
        type="password"
        label="Confirm Password"
        autoComplete="new-password"
        placeholder="Repeat password"
        required
        error={errors.confirmPassword}
        {...invalidWithAlert('register', formError, errors.confirmPassword)}
        onChange={() => clearError('confirmPassword')}
      />
      <Button type="submit" variant="brand" size="lg" className="mt-1 w-full" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        Create Account
      </Button>
    </form>
  );
}
