import { loginRequestSchema } from '@likeness/contracts';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useAuth } from '../auth-provider';
import { FormAlert, formAlertId, invalidWithAlert } from './form-alert';

const fields = ['username', 'password'] as const;

export function LoginForm() {
  const { loginMutation } = useAuth();
  const isPending = loginMutation.isPending;
  const { errors, formError, clearError, onSubmit } = useSchemaForm({
    schema: loginRequestSchema,
    fields,
    onValid: async (values) => {
      await loginMutation.mutateAsync(values);
      // The user is now in the auth state; RedirectIfSignedIn takes them to /dashboard. Navigating
      // here as well would race the context update and bounce through the guards.
      toast({ title: 'Login successful', description: 'Welcome back to Likeness!' });
    },
    onFailure: failureToast('Login failed', 'Please check your credentials and try again.'),
    inlineFailure: { fallback: 'Please check your credentials and try again.', focus: 'password' },
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-5"
      aria-describedby={formError ? formAlertId('login') : undefined}
    >
      <FormAlert formId="login" message={formError} />
      <FormField
        id="login-username"
        name="username"
        label="Username or Email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="jane_doe or jane@example.com"
        required
        error={errors.username}
        {...invalidWithAlert('login', formError, errors.username)}
        onChange={() => clearError('username')}
      />
      <FormField
        id="login-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        placeholder="••••••••"
        required
        error={errors.password}
        {...invalidWithAlert('login', formError, errors.password)}
        onChange={() => clearError('password')}
        labelAside={
          <Link
            to="/forgot-password"
            className="rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            Forgot your password?
          </Link>
        }
      />
      <Button type="submit" variant="brand" size="lg" className="mt-1 w-full" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        Log In
      </Button>
    </form>
  );
}
