import { changePasswordRequestSchema } from '@likeness/contracts';
import { KeyRound } from 'lucide-react';
import { useRef } from 'react';
import { PasswordChangeFields, passwordChangeFields as fields } from '@/components/password-change-fields';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useChangePassword } from '../api/change-password';

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
        <CardTitle as="h2" className="flex items-center gap-2">
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
          <PasswordChangeFields
            idPrefix="security"
            username={username}
            newPasswordHint="At least 6 characters"
            errors={errors}
            clearError={clearError}
            pending={changePassword.isPending}
          />
        </form>
      </CardContent>
    </Card>
  );
}
