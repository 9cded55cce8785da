import { deleteAccountRequestSchema } from '@likeness/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { clearSession } from '@/lib/session/current-user';
import { signedOutState } from '@/lib/session/signed-out';
import { useDeleteAccount } from '../api/delete-account';

const PASSWORD_FIELD_ID = 'delete-account-password';
const fields = ['password'] as const;

/** "Delete Account" and its dialog, which asks for the password before anything is deleted. */
export function DeleteAccountDialog() {
  const [open, setOpen] = useState(false);
  const deletion = useDeleteAccount();

  return (
    <AlertDialog open={open} onOpenChange={(next) => !deletion.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden="true" />
          Delete Account
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onOpenAutoFocus={(event) => {
          // The password is what the dialog asks for; Cancel stays one Tab away.
          event.preventDefault();
          document.getElementById(PASSWORD_FIELD_ID)?.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription>
            Your selfies, trained models and avatars are deleted, share links stop working and any credits left are
            lost. Your username and e-mail address become free again. This can&apos;t be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {/* Mounted only while open, so a reopened dialog starts empty. */}
        <DeleteAccountForm deletion={deletion} />
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DeleteAccountForm({ deletion }: { deletion: ReturnType<typeof useDeleteAccount> }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { errors, clearError, onSubmit } = useSchemaForm({
    schema: deleteAccountRequestSchema,
    fields,
    onValid: async (request) => {
      const { message } = await deletion.mutateAsync(request);
      // Leave the signed-in screens before forgetting the session, or the profile's guard would
      // send the visitor to /login; the landing page waits for the session to clear.
      await navigate(paths.landing, { replace: true, flushSync: true, state: signedOutState });
      clearSession(queryClient);
      toast({ title: 'Account deleted', description: message });
    },
    onFailure: failureToast('Account deletion failed', 'Your account was not deleted. Please try again.', {
      unlessUnderFields: true,
    }),
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      <FormField
        id={PASSWORD_FIELD_ID}
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        hint="Enter your password to confirm."
        required
        error={errors.password}
        onChange={() => clearError('password')}
      />
      <AlertDialogFooter>
        <AlertDialogCancel disabled={deletion.isPending}>Cancel</AlertDialogCancel>
        <Button type="submit" variant="destructive" disabled={deletion.isPending}>
          {deletion.isPending ? <Spinner /> : <Trash2 aria-hidden="true" />}
          Delete Account
        </Button>
      </AlertDialogFooter>
    </form>
  );
}
