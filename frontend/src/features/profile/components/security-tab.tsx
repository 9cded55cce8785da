import { changePasswordRequestSchema } from '@likeness/contracts';
import { KeyRound } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useChangePassword } from '../api/change-password';

const fields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** SPEC §2 Security: change the password; other devices are signed out, this one stays in. */
export function SecurityTab({ username }: { username: string }) {
  const changePassword = useChangePassword();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, clearError, onSubmit } = useSchemaForm({
    schema: changePasswordRequestSchema,
    fields,
    onValid: async (request) => {
      await changePassword.mutateAsync(request);
      formRef.current?.reset();
      toast({
        title: 'Password updated',
        description: 'Other devices signed in to your account have been signed out.',
      });
    },
    onFailure: failureToast('Password Change Failed', 'Failed to update password. Please try again.', {
      unlessUnderFields: true,
    }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-primary" aria-hidden="true" />
          Change password
        </CardTitle>
        <CardDescription>
          Use at least 6 characters, different from your current password. Other devices signed in to your account will
          be signed out; this one stays signed in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} noValidate onSubmit={onSubmit} className="grid max-w-md gap-5">
          {/* Lets password managers file the new password under the right account. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <FormField
            id="security-current-password"
            name="currentPassword"
            type="password"
            label="Current Password"
            autoComplete="current-password"
            required
            error={errors.currentPassword}
            onChange={() => clearError('currentPassword')}
          />
          <FormField
            id="security-new-password"
            name="newPassword"
            type="password"
            label="New Password"
            autoComplete="new-password"
            placeholder="At least 6 characters"
            required
            error={errors.newPassword}
            onChange={() => clearError('newPassword')}
          />
          <FormField
            id="security-confirm-password"
            name="confirmPassword"
            type="password"
            label="Confirm New Password"
            autoComplete="new-password"
            placeholder="Repeat new password"
            required
            error={errors.confirmPassword}
            onChange={() => clearError('confirmPassword')}
          />
          <Button type="submit" variant="brand" className="justify-self-start" disabled={changePassword.isPending}>
            {changePassword.isPending ? <Spinner /> : null}
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
